"""Browser actions with typed arguments, JSON schemas generated from them, and structured results.

`execute_action(tabs, name, args)` validates `args` against `ACTIONS[name].schema`, types them with the action's
arguments model (`browser_pool.actions.params`), runs the action on the active tab and returns an ActionResult: ok,
or a readable error with a suggestion; whether the page navigated and where to; a tab the page opened; the element
the action aimed at, however it was aimed; the text of any JavaScript dialog (answered by the policy documented in
`browser_pool.actions.watch`). `parse_arguments` and `perform` are its two halves, for callers that validated already.
"""

from browser_pool.actions.errors import ActionError
from browser_pool.actions.registry import (
    ACTIONS,
    ActionSpec,
    execute_action,
    parse_arguments,
    perform,
    validate_arguments,
)

__all__ = ["ACTIONS", "ActionError", "ActionSpec", "execute_action", "parse_arguments", "perform", "validate_arguments"]
