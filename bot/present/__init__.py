"""Front-end-neutral words: what a message says and which controls it offers, in the reader's language
(through bot/i18n.py), and the pictures that go with it. The Discord layer (bot/cogs/) and the terminal
(bot/console.py) both show these; nothing here imports discord.

  words.py     seat names, a Message in words, result lines, fitting lines into one message
  post.py      Post (text, controls, picture, who is pinged) and Control (a button or menu, described; its ControlKind)
  lobby.py     the lobby message
  board.py     the board message and its controls, one group's moves, the call-out menu
  moves.py     move labels, autocomplete suggestions, the "Other move…" field
  history.py   a page of /game history
  stats.py     /stats and /leaderboard
  votes.py     the vote on an absent seat
  takeback.py  the request to take back a move, put to the player to move
  picture.py   the board PNG and the replay GIF, drawn in one thread
"""
