-- Issue 13 §3 and §11: signaling rows (offers, answers, ICE candidates with IP addresses) live only while
-- their session does. UNLOGGED: they are never written to the WAL, so they reach neither WAL archives nor
-- standbys, and each relayed signal costs far less I/O (with PGlite that I/O blocks the server's event loop).
-- After a crash PostgreSQL empties the table, which is the right outcome: the clients negotiate again.
ALTER TABLE "signaling" SET UNLOGGED;
