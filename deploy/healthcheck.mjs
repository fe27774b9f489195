// The image's health check: the server's /readyz on this container's port. Node's own
// fetch, so the image needs no curl. Exit 0 when ready, 1 otherwise.
const port = process.env.PORT || '8000';
try {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, {
    signal: AbortSignal.timeout(4000),
  });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
