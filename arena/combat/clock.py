"""The fight's clock: a round is six seconds of simulated time.

The engine's round driver waits one round between rounds, and each creature's turn falls at its own instant within
the round (the round's start plus a fraction of a second by initiative place). Every duration (a spell lasting
rounds per level, a stun, a breath weapon's recharge) is a deadline on this clock, in seconds from the instant of
the turn that started it.
"""

from __future__ import annotations

ROUND = 6.0
"""Seconds in a combat round (SRD 3.5: "Each round represents 6 seconds in the game world")."""
