"""The slash commands: what Discord declares and the handler of each."""
