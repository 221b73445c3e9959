"""How the pool launches Chromium and sizes itself. Plain values; callers fill them from their settings."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from browser_pool.downloads import DownloadLimits
from browser_pool.flags import own_switches
from browser_pool.net.policy import EgressPolicy
from browser_pool.watchdog import SessionLimits

CHROMIUM_PATH = "/usr/bin/chromium"

# Background networking, component updates and sync reach out to Google; this network is closed and the
# pool must never phone home, so they are off. Feature switches (WebMCP on, autofill queries off): browser_pool.flags.
BASE_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-dev-shm-usage",
    *own_switches(),
)
# With the egress firewall on, nothing may leave outside the proxy: no QUIC (UDP), no WebRTC UDP.
EGRESS_ARGS = (
    "--disable-quic",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
)


def _default_max_sessions() -> int:
    """About 90 MB of PSS per live session; keep a quarter of memory for everything else."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 20
    return max(4, int(total * 0.75 // (90 * 1024 * 1024)))


@dataclass(slots=True)
class BrowserConfig:
    executable_path: str = CHROMIUM_PATH
    headless: bool = True
    # Chromium never runs as root: a worker started as root runs it as this system user (browser_pool.sandbox).
    browser_user: str = "hive-browser"
    # Only for a host where the sandbox cannot work: Chromium then starts with --no-sandbox, and says so loudly.
    allow_no_sandbox: bool = False
    extra_args: tuple[str, ...] = ()
    viewport_width: int = 1280
    viewport_height: int = 800
    # Sessions this worker holds at once, warm contexts kept ready, and how long an unused session lives.
    max_sessions: int = field(default_factory=_default_max_sessions)
    warm_contexts: int = 2
    # After acquires found the warm contexts used up, more are kept ready (doubling, up to this many and never past
    # max_sessions with the live ones); back to warm_contexts once no acquire has missed for warm_decay_s.
    warm_contexts_max: int = 16
    warm_decay_s: float = 120.0
    idle_timeout_s: float = 600.0
    navigation_timeout_ms: int = 15_000
    action_timeout_ms: int = 5_000
    # What one session may take of the worker all sessions share: tabs, a busy page's time, memory.
    limits: SessionLimits = field(default_factory=SessionLimits)
    # What a session's downloads may take: size, how many at once, how long (browser_pool.downloads).
    downloads: DownloadLimits = field(default_factory=DownloadLimits)
    # The network firewall (browser_pool.net): every request of every context goes through a filtering proxy.
    # None runs without it, for using the library on its own; Hive's worker always sets it.
    egress: EgressPolicy | None = None

    @property
    def args(self) -> list[str]:
        return [*BASE_ARGS, *(EGRESS_ARGS if self.egress is not None else ()), *self.extra_args]
