"""The Discord layer: discord.py glue only (commands, controls, sending); see docs/architecture.md."""
