//! Unit tests of the fsm module.
