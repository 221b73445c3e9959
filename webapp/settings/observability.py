"""Logs: readable lines under `make run`, one JSON object a line in compose and production (`HIVE_LOG_FORMAT=json`),
each carrying the ids bound where the work happens (user, conversation, run) through structlog's contextvars."""

from __future__ import annotations

from typing import Any

import environ
import structlog

env = environ.Env()

HIVE_LOG_FORMAT = env.str("HIVE_LOG_FORMAT", default="plain")


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    shared = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if log_format == "json"
        else structlog.dev.ConsoleRenderer(colors=False, pad_event_to=0)
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": structlog.stdlib.ProcessorFormatter,
                "foreign_pre_chain": shared,
                "processors": [
                    structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.processors.format_exc_info,
                    renderer,
                ],
            }
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {"django.channels.server": {"level": "WARNING"}},
    }


LOGGING = logging_config(HIVE_LOG_FORMAT, env.str("HIVE_LOG_LEVEL", default="INFO"))
