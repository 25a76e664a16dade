#!/bin/bash
# launcher-test.sh: make check's entry for the oshrun tests (run-launcher-tests.sh) with the
# built oshrun and the small PMIx client test/launcher/pmix_client.
build="${SSHMEM_TEST_BUILDDIR:-.}"
here="$(dirname "$0")"
exec bash "$here/run-launcher-tests.sh" "${OSHRUN:-$build/oshrun}" "$build/test/launcher/pmix_client"
