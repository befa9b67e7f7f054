"""The Discord layer: discord.py glue only (commands, controls, sending); see README, Architecture."""
