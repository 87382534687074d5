"""Club nights: an event of a circle, several tables paired round by round and ranked live
(pairing and standings are the engine's: scoring/engine/pairing.py, scoring/engine/standings.py)."""
