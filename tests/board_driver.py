"""The table driver the board tests use; it lives in maester.table.driver (bench chaos drives it too)."""

from maester.table.driver import STEP_TIMEOUT, TableGame, enroll_all, maester_cmd  # noqa: F401
