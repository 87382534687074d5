import json
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


@pytest.fixture(scope="session")
def scoring_examples() -> list[dict]:
    return json.loads((SHARED / "cases" / "scoring_examples.json").read_text())
