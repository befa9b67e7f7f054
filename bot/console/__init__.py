"""The terminal game, `python -m bot play`: no Discord needed."""
