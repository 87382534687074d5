"""The match loop: players, setting up a match, the board, hands (record, edit, delete, rematch),
the outbox's endpoints, and what every save keeps (statistics, ratings)."""
