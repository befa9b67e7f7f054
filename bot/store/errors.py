"""The store's own refusals: a channel that already has a game, a game changed first by someone else, a store
that was closed. (The database out of reach is bot/core/outages.py's StoreUnavailable, shared with the layers
that report it.)"""


class ChannelBusy(Exception):
    """The channel already has a game in its lobby or in play."""


class StaleVersion(Exception):
    """Someone else changed the game first; nothing was written."""


class StoreClosed(Exception):
    """The store was closed: nothing was read or written."""
