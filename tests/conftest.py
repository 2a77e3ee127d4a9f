"""Shared test settings: hypothesis profiles and small helpers."""

import copy
import os
import tempfile

import pytest

from hypothesis import HealthCheck, settings

# never touch the user's own cache: every test process gets a fresh one
os.environ["SYMBOLIC_NOISE_CACHE"] = os.path.join(tempfile.mkdtemp(prefix="sn-cache-"), "solutions.sqlite")

settings.register_profile(
    "default",
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=600, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def tampered():
    """A function returning a deep copy of a certificate with one edit applied."""

    def make(cert, edit):
        cert = copy.deepcopy(cert)
        edit(cert)
        return cert

    return make
