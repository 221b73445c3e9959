#!/bin/sh
# Chromium as the browser user, for a worker that runs as root (browser_pool/sandbox.py passes its path to
# Playwright as the browser). The arguments are Chromium's; the pipes Playwright talks over (fds 3 and 4, for
# --remote-debugging-pipe) stay open through the exec calls, which replace this process without forking.
set -eu
: "${HIVE_BROWSER_UID:?}" "${HIVE_BROWSER_GID:?}" "${HIVE_BROWSER_EXECUTABLE:?}"

profile=""
for arg in "$@"; do
    case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}" ;; esac
done
if [ -z "$profile" ] || [ -L "$profile" ] || [ ! -d "$profile" ]; then
    echo "hive browser launcher: no profile directory (--user-data-dir) to hand to the browser user" >&2
    exit 1
fi
# Playwright made the profile for root a moment ago (mode 0700, empty); from now on it is the browser user's alone.
# Chromium's home and temporary files go inside it too, so nothing it writes is readable by anyone else.
chown -R "$HIVE_BROWSER_UID:$HIVE_BROWSER_GID" "$profile"
chmod 0700 "$profile"
executable="$HIVE_BROWSER_EXECUTABLE"
exec env -u HIVE_BROWSER_UID -u HIVE_BROWSER_GID -u HIVE_BROWSER_EXECUTABLE HOME="$profile" TMPDIR="$profile" \
    setpriv --reuid="$HIVE_BROWSER_UID" --regid="$HIVE_BROWSER_GID" --clear-groups \
    --inh-caps=-all --bounding-set=-all --no-new-privs \
    -- "$executable" "$@"
