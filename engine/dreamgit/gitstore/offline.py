"""pygit2 imported for a command that never talks to a remote: its HTTPS set-up left out.

pygit2 has no lazy path for it and no setting: at import it imports :mod:`ssl` (with
``socket`` and ``_ssl``) and hands libgit2 Python's certificate locations, where OpenSSL
parses the whole CA bundle, ~16 ms of CPU together, for HTTPS that dreamgit never asks
of libgit2 (``push`` and the history's rewrites run git itself).

A command that knows it moves nothing over the network (``add``) calls
:func:`leave_out_https` before pygit2 is imported; :func:`import_pygit2` (which
``GitStore``'s first naming calls) then imports it with a stand-in for :mod:`ssl` whose
default locations read as those of a TLS back end without certificate locations: pygit2
leaves libgit2 as libgit2 starts (certificates are still verified, against OpenSSL's own
default locations: an HTTPS call in such a process may fail, it never goes unchecked). The
stand-in is removed again at once: a later ``import ssl`` gets the real module, and
``pygit2.settings._initialize_tls_certificate_locations()`` does the set-up pygit2 would
have done. Where pygit2 (or :mod:`ssl`) is already imported, or pygit2 does not take
the stand-in (another version), pygit2 is imported as it always is. (``tarfile``, which
``pygit2.repository`` imports for ``write_archive`` alone, cannot be deferred so: an
annotation of that method reads it at import.)
"""

from __future__ import annotations

import sys
import types
from typing import Any, NoReturn

__all__ = ["import_pygit2", "leave_out_https"]

#: What pygit2's Settings takes for a TLS back end without certificate locations.
_NO_LOCATIONS = "TLS backend doesn't support certificate locations"

_left_out = False


def leave_out_https() -> None:
    """Import pygit2 without its HTTPS set-up in this process (see the module's text)."""
    global _left_out
    _left_out = True


def import_pygit2() -> None:
    """Import pygit2 now: without its HTTPS set-up where :func:`leave_out_https` asked."""
    if not _left_out or "pygit2" in sys.modules or "ssl" in sys.modules:
        return
    _import_with_stand_in()


def _import_with_stand_in() -> None:
    stand_in = _ssl_stand_in()
    sys.modules["ssl"] = stand_in
    try:
        import pygit2  # noqa: F401 - its settings module is what is changed below
    except Exception:  # another pygit2: the caller's import takes it again, real ssl and all
        for name in [n for n in sys.modules if n == "pygit2" or n.startswith("pygit2.")]:
            del sys.modules[name]
    else:  # the set-up, if ever asked for again, is the real one
        settings: Any = sys.modules["pygit2.settings"]  # a module: any name may be set
        settings.get_default_verify_paths = _real_verify_paths
    finally:
        if sys.modules.get("ssl") is stand_in:
            del sys.modules["ssl"]


def _ssl_stand_in() -> types.ModuleType:
    """A module with the two names ``pygit2.settings`` imports from :mod:`ssl`."""
    stand_in = types.ModuleType("ssl", "Stand-in for ssl while pygit2 is imported.")

    class DefaultVerifyPaths:
        """Read by pygit2 inside its check for a back end without locations."""

        @property
        def cafile(self) -> NoReturn:
            from pygit2.errors import GitError  # loaded: pygit2.settings imported it

            raise GitError(_NO_LOCATIONS)

        capath = cafile

    stand_in.DefaultVerifyPaths = DefaultVerifyPaths  # type: ignore[attr-defined]
    stand_in.get_default_verify_paths = DefaultVerifyPaths  # type: ignore[attr-defined]
    return stand_in


def _real_verify_paths() -> object:
    import ssl

    return ssl.get_default_verify_paths()
