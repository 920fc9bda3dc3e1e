//! Layer 2, network: code that reaches the worker unchecked reaches no listener — not
//! through pandas' URL readers, urllib, the raw `_socket` module (the preamble's guard
//! bypassed), UDP, raw packet sockets, or UNIX sockets outside its run directory — and a
//! URL read fails at once instead of hanging.

#![cfg(target_os = "linux")] // Layer 2 as built and proven here: Landlock, seccomp, /proc.

mod security_support;

use security_support::{Listener, Sandbox};
use std::os::unix::net::UnixListener;

#[test]
fn no_listener_is_reached() {
    let sb = Sandbox::new("net");
    let tcp = Listener::new();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let udp_port = udp.local_addr().unwrap().port();
    let unix_path = sb.outside.join("agent.sock");
    let unix = UnixListener::bind(&unix_path).unwrap();
    unix.set_nonblocking(true).unwrap();
    let abstract_name = format!("pdfagent-test-{}", std::process::id());
    let abstract_listener = {
        use std::os::linux::net::SocketAddrExt;
        let addr =
            std::os::unix::net::SocketAddr::from_abstract_name(abstract_name.as_bytes()).unwrap();
        let l = UnixListener::bind_addr(&addr).unwrap();
        l.set_nonblocking(true).unwrap();
        l
    };
    let port = tcp.port;
    let code = format!(
        r#"import sys, importlib, socket, _socket, urllib.request, pandas as pd
import importlib.util  # undo the preamble's guards (reload is refused too): Layer 2 alone must hold
for m in (socket, urllib.request):
    importlib.util.find_spec(m.__name__).loader.exec_module(m)
URL = 'http://127.0.0.1:{port}/data.csv'
def attempt(label, fn):
    try:
        print('CONNECTED', label, repr(fn())[:200], flush=True)
    except BaseException as e:
        print('BLOCKED', label, type(e).__name__, e, flush=True)
attempt('pd.read_csv URL', lambda: pd.read_csv(URL))
attempt('pd.read_json URL', lambda: pd.read_json(URL))
attempt('np.loadtxt URL (DataSource)', lambda: np.lib.npyio.DataSource().open(URL).read())
attempt('urllib', lambda: urllib.request.urlopen(URL, timeout=5).read())
attempt('socket.create_connection', lambda: socket.create_connection(('127.0.0.1', {port}), timeout=5))
def raw_tcp():
    s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(('127.0.0.1', {port}))
    return s.send(b'hello')
attempt('_socket TCP', raw_tcp)
def raw_tcp6():
    s = _socket.socket(_socket.AF_INET6, _socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(('::ffff:127.0.0.1', {port}))
    return s.send(b'hello')
attempt('_socket TCP over IPv6', raw_tcp6)
def udp():
    s = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
    return s.sendto(b'hello', ('127.0.0.1', {udp_port}))
attempt('_socket UDP', udp)
attempt('raw packet socket', lambda: _socket.socket(17, _socket.SOCK_RAW, 0))
attempt('netlink socket', lambda: _socket.socket(16, _socket.SOCK_RAW, 0))
attempt('DNS lookup', lambda: _socket.getaddrinfo('example.com', 80))
def unix_path():
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    s.connect({unix:?})
    return s.send(b'hello')
attempt('UNIX socket outside the run dir', unix_path)
def unix_abstract():
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    s.connect('\0' + {abstract:?})
    return s.send(b'hello')
attempt('abstract UNIX socket', unix_abstract)
def bind_listen():
    s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    s.bind(('127.0.0.1', 0))
    s.listen()
    return s.getsockname()
attempt('TCP listen', bind_listen)
print('END', flush=True)
"#,
        unix = unix_path.to_str().unwrap(),
        abstract = abstract_name,
    );
    let run = sb.worker(&code);
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert!(!tcp.was_connected(), "the TCP listener was reached:\n{out}");
    let mut buf = [0u8; 64];
    assert!(
        udp.recv_from(&mut buf).is_err(),
        "a UDP datagram arrived:\n{out}"
    );
    assert!(
        unix.accept().is_err(),
        "the UNIX socket outside was reached:\n{out}"
    );
    assert!(
        abstract_listener.accept().is_err(),
        "the abstract UNIX socket was reached:\n{out}"
    );
    assert!(out.contains("END"), "{out}");
    assert!(
        !out.lines().any(|l| l.starts_with("CONNECTED")),
        "an attempt succeeded:\n{out}"
    );
}

#[test]
fn a_url_read_through_make_figure_reaches_nothing_and_does_not_hang() {
    // Through `make-figure` (both layers): Layer 1 rejects the URL today; whichever layer
    // stops it, the run must end without a figure, without a connection, and not by time-out.
    let sb = Sandbox::new("neturl");
    let tcp = Listener::new();
    let code = format!(
        "import pandas as pd\n\
         df = pd.read_csv('http://127.0.0.1:{}/data.csv')\n\
         plt.plot(df['x'], df['y'])\n\
         plt.savefig(OUT)\n",
        tcp.port
    );
    let run = sb.make_figure("url", &code, &["--timeout", "60"]);
    println!("{}", run.json);
    run.run.assert_ended_by_itself();
    assert!(
        !tcp.was_connected(),
        "the listener was reached: {}",
        run.json
    );
    assert_ne!(run.stage(), "done", "{}", run.json);
    assert_ne!(
        run.stage(),
        "timeout",
        "a URL read must fail, not hang: {}",
        run.json
    );
    assert!(!sb.figures.join("url.png").exists());
}
