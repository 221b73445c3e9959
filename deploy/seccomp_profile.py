"""The worker container's seccomp profile: Docker's default one, plus the namespaces Chromium's sandbox makes.

Chromium's Linux sandbox puts each renderer in new user, PID and network namespaces. Docker's default profile
allows `clone`/`unshare` with namespace flags only to a process holding CAP_SYS_ADMIN, which Hive's worker (an
unprivileged user, every capability dropped) never has. This adds rules allowing those calls when they create a
user namespace, and the PID and network namespaces made with or inside one; the kernel still checks every call
against the caller's own capabilities, so nothing is allowed beyond what unprivileged user namespaces give.

    python deploy/seccomp_profile.py moby-default.json > deploy/worker-seccomp.json

`moby-default.json` is the default profile of the Docker release you run (moby/profiles, seccomp/default.json).
"""

from __future__ import annotations

import json
import sys
from typing import Any

CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000


def namespace_rules() -> list[dict[str, Any]]:
    rules = []
    for flag, why in (
        (CLONE_NEWUSER, "a user namespace, which an unprivileged process may create"),
        (CLONE_NEWPID, "a PID namespace, which only a process privileged in its own user namespace may create"),
        (CLONE_NEWNET, "a network namespace, which only a process privileged in its own user namespace may create"),
    ):
        rules.append(
            {
                "names": ["clone", "unshare"],
                "action": "SCMP_ACT_ALLOW",
                "args": [{"index": 0, "value": flag, "valueTwo": flag, "op": "SCMP_CMP_MASKED_EQ"}],
                "comment": f"Chromium's sandbox: {why}",
                "excludes": {"arches": ["s390", "s390x"]},  # their clone takes the flags second
            }
        )
    return rules


def with_namespaces(profile: dict[str, Any]) -> dict[str, Any]:
    """`profile` with the namespace rules first; a profile that has them already comes back unchanged."""
    rules = namespace_rules()
    syscalls = [rule for rule in profile.get("syscalls", []) if rule not in rules]
    return {**profile, "syscalls": rules + syscalls}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write(__doc__ or "")
        return 2
    with open(argv[1], encoding="utf-8") as source:
        profile = json.load(source)
    if profile.get("defaultAction") not in ("SCMP_ACT_ERRNO", "SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS"):
        sys.stderr.write("that is not an allow-list profile (defaultAction should refuse); is it Docker's default?\n")
        return 1
    json.dump(with_namespaces(profile), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
