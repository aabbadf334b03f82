"""Playing a seat of a ``feltro serve`` table from a terminal, anywhere (``feltro join``).

* :mod:`feltro.remote.link` reads a join link (or QR text) into the server's addresses;
* :mod:`feltro.remote.seats` keeps the seat tokens in the user's data folder (0600);
* :mod:`feltro.remote.client` is the network client (asyncio and ``websockets``, no UI);
* :mod:`feltro.remote.words` words the server's ``state`` for a terminal;
* :mod:`feltro.remote.app` is the Textual interface on top;
* :mod:`feltro.remote.lan` announces and finds servers on the LAN (mDNS/zeroconf).
"""
