"""Installed as the package `tablero_data` (setup.py): boards/, fonts/ and i18n/ are read through
importlib.resources (bot/core/data_files.py), in a checkout and an installed bot alike."""
