"""The one builder of PDFAgent's bundled Python runtime, for Linux, Windows and macOS.

Run by `scripts/build-runtime` with the interpreter it packages. The rules (what is kept,
what is dropped, how libraries are laid out, what the manifest says) are pure functions in
their own modules; `cli` wires them to the file system in build order.
"""
