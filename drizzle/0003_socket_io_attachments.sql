-- Socket.IO postgres adapter (issue 5): events whose payload exceeds PostgreSQL's NOTIFY limit (8000 bytes)
-- travel through this table between server processes. Shape from @socket.io/postgres-adapter's README; the
-- adapter deletes rows older than 30 s. Not in database/schema.ts: the application never reads it.
-- Created on PGlite too (unused there), so both databases keep one migration history.
CREATE TABLE IF NOT EXISTS "socket_io_attachments" (
	"id" bigserial UNIQUE,
	"created_at" timestamptz DEFAULT now(),
	"payload" bytea
);
