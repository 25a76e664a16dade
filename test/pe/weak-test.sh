#!/bin/bash
# weak-test.sh: make test's share of the weak-ordering mode's suite (test/weak-suite.sh quick:
# a few programs that cover every kind of held operation, three seeds; make check-weak runs
# the whole suite). TAP output.
exec bash "${SSHMEM_TEST_SRCDIR:-.}/test/weak-suite.sh" quick
