"""The engine: pure Python, no Django. Scoring and the card vocabulary (rules), the match file
format (matchdoc), ratings' maths (rating), charts' geometry (charts), club nights' rounds and
rankings (pairing, standings)."""
