"""`run_finished` is sent once per run, inside the transaction that ended it (`run_finish`): receivers that do
anything outside the database (a webhook) do it on commit."""

from django.dispatch import Signal

run_finished = Signal()  # sender=Run, run=<Run>
