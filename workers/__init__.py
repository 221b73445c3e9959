"""Celery worker glue: the worker's asyncio loop, agent turns in pooled sessions, persisting and publishing."""
