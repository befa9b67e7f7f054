"""What the bot counts and times for its operator, in Prometheus' terms (prometheus_client's default registry,
served on /metrics by bot/operations/listener.py when TABLERO_HTTP is set; docs/operating.md says what each
means). A leaf: every layer may count here, nothing here knows the bot. Recording costs a lock and an addition,
listener or not."""
from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Seconds, around Discord's 3 s for an interaction's first answer.
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
STORE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
THINKING_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)

INTERACTIONS = Counter(
    "tablero_interactions", "Interactions received, by kind (a command's name, a control's kind) and the fate of "
    "their first answer: answered (in 3 s), late, refused by Discord, unanswered.", ["kind", "outcome"])
FIRST_ANSWER = Histogram(
    "tablero_interaction_first_answer_seconds", "From receiving an interaction to Discord accepting its first "
    "answer (Discord allows 3 s).", ["type"], buckets=ANSWER_BUCKETS)
BOARDS = Counter("tablero_boards", "Boards shown in channels: posted anew, or edited in place.", ["how"])
BOARDS_WAITING = Gauge("tablero_boards_waiting", "Games whose board Discord (or the database) kept from being "
                       "shown; each is tried again until it is.")
DISCORD_RESPONSES = Counter(
    "tablero_discord_responses", "Discord's HTTP answers by status (401 a bad token, 403 a missing permission, "
    "429 rate-limited); status 'none': no answer (the connection failed).", ["status"])
STORE_CALLS = Histogram("tablero_store_call_seconds", "Store calls (one transaction or statement each) and "
                        "their duration, by result: ok, unreachable, error.", ["result"], buckets=STORE_BUCKETS)
STORE_REACHABLE = Gauge("tablero_store_reachable", "1 while the database answered the last health probe, else 0.")
GAMES = Gauge("tablero_games", "Games of this process's shards in their lobby or in play.", ["status"])
THINKING = Histogram("tablero_computer_thinking_seconds", "A computer player's turn, from asking to the answer, "
                     "by level and how it was chosen (searched, or fell back to the normal level).",
                     ["level", "how"], buckets=THINKING_BUCKETS)
LOOP_LAG = Gauge("tablero_event_loop_lag_seconds", "How late the event loop last ran a timer that was due (the "
                 "bot answers nothing meanwhile).")
LOG_MESSAGES = Counter("tablero_log_messages", "Log lines by level (an ERROR is a bug or a fault worth a look).",
                       ["level"])
