# src/store: see the issue tracker; filled in as the area lands.
