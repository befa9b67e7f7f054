"""Fair dice: every random draw of a game derives from its secret seed.

The seed's SHA-256 is published when the game starts (a commitment) and the
seed itself when the game is over, so anyone can recompute every roll:
the roll logged at position `seq` of the action log is
`ruleset.random_roll(state_before, rng_for(seed, seq))`.
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

