#!/usr/bin/env bash
# `make lint`: fails when a commit subject is longer than 72 characters (a subject of at most 72
# saying what changed, a blank line, then the why). The last 50 commits after 358cbd3, whose older
# subjects came before this check; every commit there is when 358cbd3 is not (a shallow clone).
set -euo pipefail
export LC_ALL=C.UTF-8  # ${#subject} counts characters, not bytes
MAX=72
BASE=358cbd3

range=()
if git rev-parse -q --verify "$BASE^{commit}" >/dev/null; then
  range=("$BASE..HEAD")
fi
subjects="$(git log --format='%h %s' -n 50 ${range[@]+"${range[@]}"})"
status=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  subject="${line#* }"
  if [ "${#subject}" -gt "$MAX" ]; then
    echo "commit ${line%% *}: a subject of ${#subject} characters (at most $MAX): $subject" >&2
    status=1
  fi
done <<<"$subjects"
exit "$status"
