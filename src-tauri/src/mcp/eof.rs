//! Standard input that tells when the client has gone: MCP over stdio ends with EOF, and
//! every worker the server started must go with it at once — rmcp itself waits a few seconds
//! for in-flight answers before it cancels its handlers.

use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};

pub struct NotifyOnEof<R> {
    inner: R,
    on_eof: Option<Box<dyn FnOnce() + Send>>,
}

impl<R> NotifyOnEof<R> {
    pub fn new(inner: R, on_eof: impl FnOnce() + Send + 'static) -> Self {
        NotifyOnEof {
            inner,
            on_eof: Some(Box::new(on_eof)),
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for NotifyOnEof<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let ended = match &polled {
            Poll::Ready(Ok(())) => buf.filled().len() == before && buf.remaining() > 0,
            Poll::Ready(Err(_)) => true,
            Poll::Pending => false,
        };
        if ended && let Some(on_eof) = self.on_eof.take() {
            on_eof();
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn fires_once_at_end_of_input_not_before() {
        let count = Arc::new(AtomicUsize::new(0));
        let seen = Arc::clone(&count);
        let mut reader = NotifyOnEof::new(&b"hello"[..], move || {
            seen.fetch_add(1, Ordering::SeqCst);
        });
        let mut buf = [0u8; 3];
        assert_eq!(reader.read(&mut buf).await.unwrap(), 3);
        assert_eq!(count.load(Ordering::SeqCst), 0);
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).await.unwrap();
        assert_eq!(rest, b"lo");
        assert_eq!(reader.read(&mut buf).await.unwrap(), 0);
        assert_eq!(count.load(Ordering::SeqCst), 1);
    }
}
