"""What a soak of random evenings reached (make soak): the shards' counts added up.

python tests/cross/evenings_report.py REPORT   (reads REPORT.<shard>.json)
"""

import json
import sys
from collections import Counter
from pathlib import Path


def main(prefix: str) -> None:
    total: Counter[str] = Counter()
    base = Path(prefix)
    for path in sorted(base.parent.glob(f"{base.name}.*.json")):
        total.update(json.loads(path.read_text()))
    print(f"evenings: {total.pop('evenings', 0)}")
    print(f"steps: {total.pop('steps', 0)}")
    print(f"requests: {total.pop('requests', 0)}")
    groups: dict[str, list[str]] = {}
    for key in sorted(total):
        kind, _, what = key.partition(" ")
        groups.setdefault(kind, []).append(f"{what} ({total[key]})")
    for kind, states in groups.items():
        print(f"{kind}: {len(states)} distinct")
        for state in states:
            print(f"  {state}")


if __name__ == "__main__":
    main(sys.argv[1])
