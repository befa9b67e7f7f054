"""Fair dice: every random draw of a game derives from its secret seed.

The seed's SHA-256 is published when the game starts (a commitment; already
in the lobby when seats are to be drawn) and the seed itself when the game is
over, so anyone can recompute every draw: the roll logged at position `seq` of
the action log is `ruleset.random_roll(state_before, rng_for(seed, seq))`;
seats drawn at random are `seat_order(seed, n)` (bot/domain/seating.py).
"""
from __future__ import annotations

import hashlib
import hmac
import random
import secrets


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def rng_for(seed: str, seq: int) -> random.Random:
    """The generator for the draw at action-log position `seq`."""
    digest = hmac.new(bytes.fromhex(seed), f"roll:{seq}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def setup_seed(seed: str) -> int:
    """The integer handed to `Ruleset.new_game` (random set-ups, e.g. Pariti)."""
    digest = hmac.new(bytes.fromhex(seed), b"setup", hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def seat_order(seed: str, n_players: int) -> list[int]:
    """Seats drawn at random: seat i goes to the player who sat at place `order[i]` of the lobby
    (0 = the host). A permutation of range(n_players), from its own stream of the seed."""
    digest = hmac.new(bytes.fromhex(seed), b"seating", hashlib.sha256).digest()
    order = list(range(n_players))
    random.Random(int.from_bytes(digest, "big")).shuffle(order)
    return order
