"""Browser actions (seed 004's full set) with JSON schemas, validation and structured results.

`execute_action(tabs, name, args)` validates `args` against `ACTIONS[name].schema`, runs the action on the
active tab and returns an ActionResult: ok, or a readable error with a suggestion; whether the page navigated
and where to; a tab the page opened; the text of any JavaScript dialog (answered by the policy documented in
`browser_pool.actions.watch`).
"""

from browser_pool.actions.errors import ActionError
from browser_pool.actions.registry import ACTIONS, ActionSpec, execute_action, validate_arguments

__all__ = ["ACTIONS", "ActionError", "ActionSpec", "execute_action", "validate_arguments"]
