"""What comes in from Discord: controls clicked, menus, modals, channels and servers lost."""
