//! A bounded pool for engine work: a fixed number of worker threads and a
//! bounded queue. When the queue is full, [`EnginePool::try_submit`] says so
//! at once ([`PoolBusy`]) instead of blocking the bot.
//!
//! Every job gets a stop flag (pass it to [`crate::engine::Limits::with_stop`]):
//! it is set when the caller stops waiting (its [`JobHandle`] is dropped
//! before the result came) and for every job at [`EnginePool::shutdown`], so
//! no search runs on for nobody. After `shutdown`, queued jobs are dropped
//! unrun and new ones are refused.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A job's stop flag, shared with the search it runs.
pub type StopFlag = Arc<AtomicBool>;

/// The queue is full: "busy, try again in a moment".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine is busy, try again in a moment")]
pub struct PoolBusy;

/// What the workers and the submitters share.
#[derive(Debug, Default)]
struct Shared {
    /// Set by [`EnginePool::shutdown`]: queued jobs are skipped.
    closed: AtomicBool,
    /// The stop flags of queued and running jobs (dead ones are pruned).
    flags: Mutex<Vec<Weak<AtomicBool>>>,
    /// Jobs in the queue, not yet taken by a worker.
    queued: AtomicUsize,
    /// Jobs a worker is running.
    running: AtomicUsize,
}

/// How busy a pool is right now (for `/metrics`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolLoad {
    /// Worker threads.
    pub threads: usize,
    /// Jobs being run.
    pub running: usize,
    /// Jobs waiting in the queue.
    pub queued: usize,
}

/// A fixed set of engine threads with a bounded queue.
#[derive(Debug)]
pub struct EnginePool {
    tx: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
    shared: Arc<Shared>,
}

/// The future result of a submitted job. Dropping it before the result
/// arrived stops the job's search.
#[derive(Debug)]
pub struct JobHandle<T> {
    rx: Receiver<T>,
    stop: StopFlag,
    done: bool,
}

impl<T> JobHandle<T> {
    /// Waits for the result; `None` if the job panicked or the pool shut down.
    pub fn wait(mut self) -> Option<T> {
        let r = self.rx.recv().ok();
        self.done = true;
        r
    }

    /// Waits at most `timeout`; `Err(self)` if the result is not there yet
    /// (drop it to stop the search, or wait again).
    pub fn wait_timeout(mut self, timeout: Duration) -> Result<Option<T>, JobHandle<T>> {
        match self.rx.recv_timeout(timeout) {
            Ok(v) => {
                self.done = true;
                Ok(Some(v))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                self.done = true;
                Ok(None)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Err(self),
        }
    }

    /// The job's stop flag.
    #[must_use]
    pub fn stop_flag(&self) -> &StopFlag {
        &self.stop
    }
}

impl<T> Drop for JobHandle<T> {
    fn drop(&mut self) {
        if !self.done {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl EnginePool {
    /// `threads` workers (at least one) and room for `queue` waiting jobs.
    #[must_use]
    pub fn new(threads: usize, queue: usize) -> EnginePool {
        let (tx, rx) = mpsc::sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        let shared = Arc::new(Shared::default());
        let workers = (0..threads.max(1))
            .map(|i| {
                let rx = Arc::clone(&rx);
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("engine-{i}"))
                    .spawn(move || loop {
                        let job = match rx.lock() {
                            Ok(guard) => guard.recv(),
                            Err(_) => return,
                        };
                        if job.is_ok() {
                            shared.queued.fetch_sub(1, Ordering::SeqCst);
                        }
                        match job {
                            // After shutdown a queued job is dropped unrun
                            // (its handle sees the pool gone).
                            Ok(_) if shared.closed.load(Ordering::SeqCst) => {}
                            // A panicking job loses its result, not the worker.
                            Ok(job) => {
                                shared.running.fetch_add(1, Ordering::SeqCst);
                                let _ = catch_unwind(AssertUnwindSafe(job));
                                shared.running.fetch_sub(1, Ordering::SeqCst);
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
            shared,
        }
    }

    /// Queues `job`, or returns [`PoolBusy`] at once if the queue is full.
    pub fn try_submit<T, F>(&self, job: F) -> Result<JobHandle<T>, PoolBusy>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.try_submit_stoppable(move |_| job())
    }

    /// Queues `job`, which gets its stop flag (for the search's limits), or
    /// returns [`PoolBusy`] at once if the queue is full or the pool is shut
    /// down.
    pub fn try_submit_stoppable<T, F>(&self, job: F) -> Result<JobHandle<T>, PoolBusy>
    where
        T: Send + 'static,
        F: FnOnce(StopFlag) -> T + Send + 'static,
    {
        self.submit_until(job, None)
    }

    /// Like [`EnginePool::try_submit_stoppable`], but waits up to `patience`
    /// for room in the queue (for background workers, which may wait).
    pub fn submit_waiting<T, F>(&self, job: F, patience: Duration) -> Result<JobHandle<T>, PoolBusy>
    where
        T: Send + 'static,
        F: FnOnce(StopFlag) -> T + Send + 'static,
    {
        self.submit_until(job, Some(Instant::now() + patience))
    }

    fn submit_until<T, F>(&self, job: F, until: Option<Instant>) -> Result<JobHandle<T>, PoolBusy>
    where
        T: Send + 'static,
        F: FnOnce(StopFlag) -> T + Send + 'static,
    {
        if self.shared.closed.load(Ordering::SeqCst) {
            return Err(PoolBusy);
        }
        let stop: StopFlag = Arc::new(AtomicBool::new(false));
        let (rtx, rrx) = mpsc::sync_channel(1);
        let flag = Arc::clone(&stop);
        let mut boxed: Job = Box::new(move || {
            // The caller may have stopped waiting; that is fine.
            let _ = rtx.send(job(flag));
        });
        let tx = self.tx.as_ref().ok_or(PoolBusy)?;
        // Counted before the send, so that a worker taking the job at once
        // never counts it below zero; taken back if the send fails.
        self.shared.queued.fetch_add(1, Ordering::SeqCst);
        let unqueue = || self.shared.queued.fetch_sub(1, Ordering::SeqCst);
        loop {
            match tx.try_send(boxed) {
                Ok(()) => break,
                Err(TrySendError::Full(back)) => match until {
                    Some(t) if Instant::now() < t && !self.shared.closed.load(Ordering::SeqCst) => {
                        boxed = back;
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    _ => {
                        unqueue();
                        return Err(PoolBusy);
                    }
                },
                Err(TrySendError::Disconnected(_)) => {
                    unqueue();
                    return Err(PoolBusy);
                }
            }
        }
        let mut flags = self
            .shared
            .flags
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        flags.retain(|w| w.strong_count() > 0);
        flags.push(Arc::downgrade(&stop));
        drop(flags);
        // A shutdown between the check above and now must still stop it.
        if self.shared.closed.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
        }
        Ok(JobHandle {
            rx: rrx,
            stop,
            done: false,
        })
    }

    /// Threads, running and queued jobs right now.
    #[must_use]
    pub fn load(&self) -> PoolLoad {
        PoolLoad {
            threads: self.workers.len(),
            running: self.shared.running.load(Ordering::SeqCst),
            queued: self.shared.queued.load(Ordering::SeqCst),
        }
    }

    /// Whether [`EnginePool::shutdown`] was called.
    #[must_use]
    pub fn is_shut_down(&self) -> bool {
        self.shared.closed.load(Ordering::SeqCst)
    }

    /// Stops every running search, drops the queued jobs unrun and refuses
    /// new ones. Returns at once; the workers end when their job returns.
    pub fn shutdown(&self) {
        self.shared.closed.store(true, Ordering::SeqCst);
        let flags = self
            .shared
            .flags
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for f in flags.iter().filter_map(Weak::upgrade) {
            f.store(true, Ordering::SeqCst);
        }
    }
}

impl Drop for EnginePool {
    fn drop(&mut self) {
        self.shutdown();
        self.tx = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn load_counts_running_and_queued_jobs() {
        let pool = EnginePool::new(1, 4);
        assert_eq!(
            pool.load(),
            PoolLoad {
                threads: 1,
                running: 0,
                queued: 0
            }
        );
        let gate = Arc::new(AtomicBool::new(false));
        let started = Arc::new(AtomicBool::new(false));
        let (g, s) = (Arc::clone(&gate), Arc::clone(&started));
        let first = pool
            .try_submit(move || {
                s.store(true, Ordering::SeqCst);
                while !g.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
            .unwrap();
        while !started.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let queued: Vec<_> = (0..2).map(|_| pool.try_submit(|| ()).unwrap()).collect();
        assert_eq!(pool.load().running, 1);
        assert_eq!(pool.load().queued, 2);
        gate.store(true, Ordering::SeqCst);
        first.wait();
        for h in queued {
            h.wait();
        }
        // The worker ends its bookkeeping just after sending the result.
        let end = Instant::now() + Duration::from_secs(5);
        while pool.load().running != 0 && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(pool.load().running, 0);
        assert_eq!(pool.load().queued, 0);
    }

    #[test]
    fn panicking_job_does_not_kill_the_worker() {
        let pool = EnginePool::new(1, 4);
        let bad = pool.try_submit(|| -> u32 { panic!("boom") }).unwrap();
        assert_eq!(bad.wait(), None);
        let good = pool.try_submit(|| 5).unwrap();
        assert_eq!(good.wait(), Some(5));
    }

    #[test]
    fn a_dropped_handle_stops_its_job() {
        let pool = EnginePool::new(1, 2);
        let (seen_tx, seen_rx) = mpsc::channel();
        let h = pool
            .try_submit_stoppable(move |stop: StopFlag| {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                let _ = seen_tx.send(());
            })
            .unwrap();
        let h = h.wait_timeout(Duration::from_millis(20)).unwrap_err();
        drop(h);
        seen_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the job saw its stop flag");
        // The worker is free again.
        assert_eq!(pool.try_submit(|| 7).unwrap().wait(), Some(7));
    }

    #[test]
    fn shutdown_stops_running_and_drops_queued_jobs() {
        let pool = EnginePool::new(1, 4);
        let (started_tx, started_rx) = mpsc::channel();
        let running = pool
            .try_submit_stoppable(move |stop: StopFlag| {
                let _ = started_tx.send(());
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                "stopped"
            })
            .unwrap();
        let ran = Arc::new(AtomicBool::new(false));
        let r = Arc::clone(&ran);
        let queued = pool
            .try_submit(move || r.store(true, Ordering::SeqCst))
            .unwrap();
        started_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the first job runs");
        pool.shutdown();
        assert_eq!(running.wait(), Some("stopped"));
        assert_eq!(queued.wait(), None, "a queued job is dropped unrun");
        assert!(!ran.load(Ordering::SeqCst));
        assert!(pool.try_submit(|| 1).is_err(), "no new work after shutdown");
        drop(pool);
    }
}
