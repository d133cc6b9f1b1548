#!/bin/sh
# The validation suite's fast version (tests/validation/validate.c): the
# same scenarios and criteria with one seed and smaller crowds.  The full
# table is 'make validate'.
exec ./tests/validation/validate --fast
