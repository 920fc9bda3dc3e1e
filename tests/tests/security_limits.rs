//! Layer 2, resources: an endless loop is stopped at the time limit with nothing left
//! running, a memory bomb meets the address-space limit, a 20 GB write meets the file-size
//! limit, and 200 MB on stdout does not grow the parent (its output is read with a cap).

#![cfg(target_os = "linux")] // Layer 2 as built and proven here: Landlock, seccomp, /proc.

mod security_support;

use security_support::{Sandbox, processes_under};

fn assert_no_run_left(sb: &Sandbox) {
    let runs = sb.runs_dir();
    let left: Vec<_> = std::fs::read_dir(&runs)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(
        left.is_empty(),
        "run directories were left behind: {left:?}"
    );
    assert!(
        processes_under(&runs).is_empty(),
        "worker processes outlived the run: {:?}",
        processes_under(&runs)
    );
}

#[test]
fn an_endless_loop_is_stopped_and_nothing_outlives_it() {
    let sb = Sandbox::new("loop");
    let run = sb.make_figure(
        "loop",
        "x = 0\nwhile True:\n    x += 1\n",
        &["--timeout", "2"],
    );
    println!("{}", run.json);
    run.run.assert_ended_by_itself();
    assert_eq!(run.exit_code(), Some(3), "{}", run.json);
    assert_eq!(run.stage(), "timeout");
    assert!(!sb.figures.join("loop.png").exists());
    assert_no_run_left(&sb);
}

#[test]
fn a_memory_bomb_meets_the_memory_limit() {
    let sb = Sandbox::new("mem");
    let code = "blocks = []\nwhile True:\n    blocks.append(np.ones(25_000_000))\n";
    let run = sb.make_figure("mem", code, &["--memory", "1024", "--timeout", "60"]);
    println!("{}", run.json);
    run.run.assert_ended_by_itself();
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    assert_eq!(run.stage(), "run");
    let tail = run.json["stderr_tail"].as_str().unwrap_or("");
    assert!(tail.contains("MemoryError"), "{}", run.json);
    assert_no_run_left(&sb);
}

#[test]
fn a_twenty_gigabyte_write_meets_the_file_size_limit() {
    let sb = Sandbox::new("fsize");
    let code = r#"chunk = b'\0' * (1 << 24)
written = 0
try:
    with open('big.bin', 'wb') as f:
        for i in range(1280):  # 20 GiB
            f.write(chunk)
            written += len(chunk)
    print('WROTE ALL', written, flush=True)
except OSError as e:
    print('STOPPED after', written, e, flush=True)
"#;
    let run = sb.worker(code);
    let out = run.output();
    println!("{out}");
    run.assert_ended_by_itself();
    let size = std::fs::metadata(sb.run.join("big.bin"))
        .map(|m| m.len())
        .unwrap_or(0);
    assert!(
        size <= 256 << 20,
        "the worker wrote a {size}-byte file past the 256 MiB file-size limit:\n{out}"
    );
    assert!(out.contains("STOPPED after"), "the write must fail:\n{out}");
}

#[test]
fn two_hundred_megabytes_on_stdout_keep_the_parent_small() {
    let sb = Sandbox::new("stdout");
    let code = "line = 'x' * 1_000_000\n\
                for i in range(200):\n    print(line)\n\
                plt.plot([1, 2], [3, 4])\n\
                plt.savefig(OUT)\n";
    let run = sb.make_figure("loud", code, &["--timeout", "120"]);
    println!("{} peak {:?} KiB", run.json, run.run.peak_rss_kib);
    run.run.assert_ended_by_itself();
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let peak = run
        .run
        .peak_rss_kib
        .expect("the parent's VmHWM could be read from /proc");
    assert!(
        peak < 100 * 1024,
        "the parent's peak memory was {peak} KiB while the worker printed 200 MB"
    );
    assert!(sb.figures.join("loud.png").is_file());
    assert_no_run_left(&sb);
}

#[test]
fn many_capped_files_cannot_fill_the_disk() {
    // Each file stays under the file-size limit; together they would be 12.8 GB. Layer 1
    // allows writing into the run directory, so this goes through `make-figure`: the run
    // directory's disk watch (1 GiB) must stop it.
    let sb = Sandbox::new("diskfill");
    // The code runs in SRC (read-only); the run directory is where OUT is.
    let code = "block = np.ones(2 ** 24)\nrun = OUT.rsplit('/', 1)[0]\n\
                for i in range(100):\n    block.tofile(f'{run}/part{i}.bin')\n\
                plt.plot([1, 2])\nplt.savefig(OUT)\n";
    let run = sb.make_figure("fill", code, &["--timeout", "120"]);
    println!("{}", run.json);
    run.run.assert_ended_by_itself();
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    assert!(
        run.json["hint"]
            .as_str()
            .is_some_and(|h| h.contains("run directory")),
        "{}",
        run.json
    );
    assert!(!sb.figures.join("fill.png").exists());
    assert_no_run_left(&sb);
}

#[test]
fn many_small_files_cannot_exhaust_inodes() {
    let sb = Sandbox::new("inodes");
    let code = "run = OUT.rsplit('/', 1)[0]\nfor i in range(30_000):\n    np.save(f'{run}/f{i}.npy', np.zeros(1))\n\
                plt.plot([1, 2])\nplt.savefig(OUT)\n";
    let run = sb.make_figure("inodes", code, &["--timeout", "120"]);
    println!("{}", run.json);
    run.run.assert_ended_by_itself();
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    assert!(
        run.json["hint"]
            .as_str()
            .is_some_and(|h| h.contains("files")),
        "{}",
        run.json
    );
    assert_no_run_left(&sb);
}
