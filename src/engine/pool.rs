//! A bounded pool for engine work: a fixed number of worker threads and a
//! bounded queue. When the queue is full, [`EnginePool::try_submit`] says so
//! at once ([`PoolBusy`]) instead of blocking the bot.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// The queue is full: "busy, try again in a moment".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine is busy, try again in a moment")]
pub struct PoolBusy;

/// A fixed set of engine threads with a bounded queue.
#[derive(Debug)]
pub struct EnginePool {
    tx: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
}

/// The future result of a submitted job.
#[derive(Debug)]
pub struct JobHandle<T> {
    rx: Receiver<T>,
}

impl<T> JobHandle<T> {
    /// Waits for the result; `None` if the job panicked or the pool shut down.
    pub fn wait(self) -> Option<T> {
        self.rx.recv().ok()
    }

    /// Waits at most `timeout`; `Err(self)` if the result is not there yet.
    pub fn wait_timeout(self, timeout: Duration) -> Result<Option<T>, JobHandle<T>> {
        match self.rx.recv_timeout(timeout) {
            Ok(v) => Ok(Some(v)),
            Err(mpsc::RecvTimeoutError::Disconnected) => Ok(None),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(self),
        }
    }
}

impl EnginePool {
    /// `threads` workers (at least one) and room for `queue` waiting jobs.
    #[must_use]
    pub fn new(threads: usize, queue: usize) -> EnginePool {
        let (tx, rx) = mpsc::sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        let workers = (0..threads.max(1))
            .map(|i| {
                let rx = Arc::clone(&rx);
                std::thread::Builder::new()
                    .name(format!("engine-{i}"))
                    .spawn(move || loop {
                        let job = match rx.lock() {
                            Ok(guard) => guard.recv(),
                            Err(_) => return,
                        };
                        match job {
                            // A panicking job loses its result, not the worker.
                            Ok(job) => {
                                let _ = catch_unwind(AssertUnwindSafe(job));
                            }
                            Err(_) => return,
                        }
                    })
                    .expect("spawning an engine thread")
            })
            .collect();
        EnginePool {
            tx: Some(tx),
            workers,
        }
    }

    /// Queues `job`, or returns [`PoolBusy`] at once if the queue is full.
    pub fn try_submit<T, F>(&self, job: F) -> Result<JobHandle<T>, PoolBusy>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (rtx, rrx) = mpsc::sync_channel(1);
        let boxed: Job = Box::new(move || {
            // The caller may have stopped waiting; that is fine.
            let _ = rtx.send(job());
        });
        let tx = self.tx.as_ref().ok_or(PoolBusy)?;
        match tx.try_send(boxed) {
            Ok(()) => Ok(JobHandle { rx: rrx }),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(PoolBusy),
        }
    }
}

impl Drop for EnginePool {
    fn drop(&mut self) {
        self.tx = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn runs_jobs_and_reports_busy() {
        let pool = EnginePool::new(1, 1);
        let gate = Arc::new(AtomicBool::new(false));
        let g = Arc::clone(&gate);
        // The first job occupies the worker until the gate opens.
        let first = pool
            .try_submit(move || {
                while !g.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                1
            })
            .unwrap();
        // Fill the queue (the worker may or may not have taken job 1 yet).
        let mut accepted = vec![];
        let mut busy = false;
        for i in 0..3 {
            match pool.try_submit(move || i + 10) {
                Ok(h) => accepted.push(h),
                Err(PoolBusy) => busy = true,
            }
        }
        assert!(busy, "a full queue must refuse");
        gate.store(true, Ordering::Relaxed);
        assert_eq!(first.wait(), Some(1));
        for h in accepted {
            assert!(h.wait().is_some());
        }
    }

    #[test]
    fn panicking_job_does_not_kill_the_worker() {
        let pool = EnginePool::new(1, 4);
        let bad = pool.try_submit(|| -> u32 { panic!("boom") }).unwrap();
        assert_eq!(bad.wait(), None);
        let good = pool.try_submit(|| 5).unwrap();
        assert_eq!(good.wait(), Some(5));
    }
}
