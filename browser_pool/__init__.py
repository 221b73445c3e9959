"""Pooled headless Chromium sessions: tabs, page observation, actions, content extraction, live view.

A plain async library on Playwright's async API. It never imports Django or `agents`.
"""
