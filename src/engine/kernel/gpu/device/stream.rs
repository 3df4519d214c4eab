//! Batches streamed through the device: up to four at a time, so that the threads done with
//! one go on with the next while the last sub-jobs of the first are searched.
//!
//! The device's batch buffers (`tables`, `sub_jobs`, `results`) have four quarters, the places.
//! A batch is written into a free place; its sub-jobs are numbered on from the last batch's, and
//! the shader's threads claim numbers in order and start a claim once its batch is on the
//! device. Each dispatch lets every thread run at most `budget` steps; the host keeps one
//! dispatch queued behind the one it waits for, so the device never waits for the host, and
//! adapts the budget so that a dispatch takes about 100 ms (`TARGET_DISPATCH`; desktop drivers
//! stop a shader after about two seconds). A place whose sub-jobs are all counted is copied back
//! and handed to the caller, and the place takes the next batch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Device, WORKGROUP, bytes};
use crate::engine::kernel::gpu::split::SubJob;
use crate::engine::kernel::gpu::{GpuError, Prepared, Work};

/// The time one dispatch aims at.
const TARGET_DISPATCH: Duration = Duration::from_millis(100);
/// Places for batches on the device (the shader's `PLACES`).
const PLACES: usize = 4;
/// Bytes of the `control` buffer: the next sub-job number to claim, the steps run (two
/// words), the most steps one thread ran, the sub-jobs of each place not counted yet.
const CONTROL_BYTES: u64 = 16 + 4 * PLACES as u64;
/// Sub-jobs a place holds at least, per thread of a dispatch (places grow from there when a
/// batch needs more).
const MIN_ROOM_PER_THREAD: u64 = 8;
/// Where in `control` the steps of a dispatch begin (cleared before each one).
const STEPS_AT: u64 = 4;
/// Where in `control` the places' remaining counts begin.
const REMAINING_AT: u64 = 16;
/// Bytes of the shader's `Params`.
const PARAMS_BYTES: u64 = 48;
/// Sub-job numbers run up to this at most before the stream starts over from 0 (they are
/// `u32` on the device).
pub(crate) const MAX_NUMBER: u64 = 1 << 31;

/// The batch buffers, each in [`PLACES`] parts (the places), kept from stream to stream and grown
/// when a batch needs more (a batch of a million sub-jobs would otherwise allocate, and clear,
/// 40 MB before its first dispatch).
pub(in crate::engine::kernel::gpu) struct Places {
    tables: wgpu::Buffer,
    sub_jobs: wgpu::Buffer,
    results: wgpu::Buffer,
    /// Each place's results, copied back.
    results_read: [wgpu::Buffer; PLACES],
    /// `u32` words of `tables` per place.
    table_words: u64,
    /// Sub-jobs (and pairs of result words) per place.
    sub_job_room: u64,
}

/// Why a stream ended early: the device's error and the batches it held, which the caller
/// counts another way.
#[derive(Debug)]
pub struct StreamError<T> {
    /// What the device reported.
    pub error: GpuError,
    /// The batches taken but not handed back.
    pub unfinished: Vec<T>,
}

/// A batch in a place.
struct OnDevice<T> {
    token: T,
    batch: Prepared,
    /// Its first sub-job number, and how many it has.
    start: u32,
    count: u32,
    /// The stack levels of its deepest sub-job (its free rows less one): what the stacks must
    /// hold while it is on the device.
    levels: u32,
    /// The first dispatch that searches it: only the control words of that one and later ones
    /// tell how many of its sub-jobs are left.
    first_dispatch: usize,
    /// Its results' copy, once every sub-job is counted: the submission that holds it.
    copied: Option<wgpu::SubmissionIndex>,
}

/// The buffers of one stream besides the places'.
struct Streamed {
    params: wgpu::Buffer,
    control: wgpu::Buffer,
    control_read: [wgpu::Buffer; 2],
}

/// Where a stream stands: the batches in the places, one taken that waits for room, the
/// sub-job numbers given so far, and whether `next` has run dry.
struct Stream<T> {
    places: [Option<OnDevice<T>>; PLACES],
    waiting: Option<(T, Prepared)>,
    numbered: u64,
    ended: bool,
    buffers: Streamed,
    /// The bind group of `buffers` and the device's places (made again when the places grow).
    bind_group: Option<wgpu::BindGroup>,
}

impl Device {
    /// Counts batches until `next` has none left: `next` is called whenever a place is free
    /// (the first time before any dispatch), and `done` is given each batch's token and its
    /// totals per job, in job order, as soon as its sub-jobs are all counted. `Ok(false)`: the
    /// stop flag was raised first (the batches in the places are dropped). On a device error,
    /// the batches taken and not handed back are returned with it.
    pub(in crate::engine::kernel::gpu) fn stream<T>(
        &mut self,
        next: &mut dyn FnMut() -> Option<(T, Prepared)>,
        done: &mut dyn FnMut(T, Vec<u64>),
        stop: Option<&AtomicBool>,
    ) -> Result<bool, StreamError<T>> {
        use wgpu::BufferUsages as U;
        let mut stream = Stream {
            places: std::array::from_fn(|_| None),
            waiting: None,
            numbered: 0,
            ended: false,
            buffers: Streamed {
                params: self.buffer("params", PARAMS_BYTES, U::UNIFORM | U::COPY_DST),
                control: self.buffer(
                    "control",
                    CONTROL_BYTES,
                    U::STORAGE | U::COPY_DST | U::COPY_SRC,
                ),
                control_read: [0, 1].map(|i| {
                    self.buffer(
                        &format!("control read {i}"),
                        CONTROL_BYTES,
                        U::MAP_READ | U::COPY_DST,
                    )
                }),
            },
            bind_group: None,
        };
        let result = self.run_stream(&mut stream, next, done, stop);
        result.map_err(|error| StreamError {
            error,
            unfinished: stream
                .places
                .into_iter()
                .flatten()
                .map(|p| p.token)
                .chain(stream.waiting.map(|(token, _)| token))
                .collect(),
        })
    }

    fn run_stream<T>(
        &mut self,
        stream: &mut Stream<T>,
        next: &mut dyn FnMut() -> Option<(T, Prepared)>,
        done: &mut dyn FnMut(T, Vec<u64>),
        stop: Option<&AtomicBool>,
    ) -> Result<bool, GpuError> {
        #[cfg(test)]
        if std::mem::take(&mut self.fail_next) {
            stream.waiting = next();
            return Err(GpuError::Device("a fault made by a test".into()));
        }
        // Every thread without a claim, numbers from 0.
        self.restart(&stream.buffers);
        let mut work = Work::default();
        let started = Instant::now();
        // The dispatch queued: its submission and number (its control words go to
        // `control_read[number % 2]`).
        let mut queued: Option<(wgpu::SubmissionIndex, usize)> = None;
        let mut i = 0usize;
        let mut at = Instant::now();
        loop {
            self.fill_places(stream, next, done, i)?;
            if stream.places.iter().all(Option::is_none) {
                break;
            }
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                // Let the queued work end before the buffers go.
                let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
                return Ok(false);
            }
            // Keep the next dispatch queued while this one runs.
            let ahead = (self.dispatch(stream, i % 2), i);
            i += 1;
            let Some((submission, number)) = queued.replace(ahead) else {
                continue;
            };
            let control = self.read(&stream.buffers.control_read[number % 2], submission)?;
            work.add(
                u64::from(control[1]) | u64::from(control[2]) << 32,
                control[3],
                self.threads,
            );
            self.steer_budget(at.elapsed());
            at = Instant::now();
            self.settle_places(stream, &control, number, done, started)?;
        }
        if let Some((submission, _)) = queued {
            // The last dispatch had nothing left to search; let it end.
            let _ = self
                .device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(submission),
                    timeout: Some(super::DISPATCH_TIMEOUT),
                })
                .map_err(GpuError::device)?;
        }
        self.work.add_work(work);
        if self.trace && work.dispatches > 0 {
            eprintln!(
                "nqueens: gpu stream: {} dispatches, {} steps, busy {:.1}%, {:.0} ms",
                work.dispatches,
                work.steps,
                work.busy().unwrap_or(0.0) * 100.0,
                started.elapsed().as_secs_f64() * 1000.0
            );
        }
        Ok(true)
    }

    /// Free places take the next batches (prepared on the CPU while the device works), to be
    /// searched from dispatch `dispatch` on; before the first dispatch one only, so that the
    /// device starts at once. A batch that does not fit waits until every place is free: then
    /// the places grow, or the numbers start over.
    fn fill_places<T>(
        &mut self,
        stream: &mut Stream<T>,
        next: &mut dyn FnMut() -> Option<(T, Prepared)>,
        done: &mut dyn FnMut(T, Vec<u64>),
        dispatch: usize,
    ) -> Result<(), GpuError> {
        for p in 0..PLACES {
            if stream.places[p].is_some() {
                continue;
            }
            if stream.waiting.is_none() && !stream.ended {
                stream.waiting = next();
                stream.ended = stream.waiting.is_none();
            }
            let Some((token, batch)) = stream.waiting.take() else {
                return Ok(());
            };
            if batch.split.sub_jobs.is_empty() {
                // Nothing for the device: counted on the CPU already.
                done(token, batch.totals(&[])?);
                continue;
            }
            let count = batch.split.sub_jobs.len() as u64;
            let fits = self.places.as_ref().is_some_and(|b| {
                b.sub_job_room >= count && b.table_words >= batch.split.tables.len() as u64
            });
            if !fits || stream.numbered + count > self.number_limit {
                if stream.places.iter().any(Option::is_some) {
                    stream.waiting = Some((token, batch));
                    return Ok(());
                }
                if !fits {
                    self.grow_places(&batch)?;
                    stream.bind_group = None;
                }
                self.restart(&stream.buffers);
                stream.numbered = 0;
            }
            batch
                .split
                .check(self.max_levels)
                .map_err(GpuError::Device)?;
            let buffers = self.places.as_ref().expect("grown above");
            self.queue.write_buffer(
                &buffers.tables,
                p as u64 * buffers.table_words * 4,
                bytes(&batch.split.tables),
            );
            self.queue.write_buffer(
                &buffers.sub_jobs,
                p as u64 * buffers.sub_job_room * size_of::<SubJob>() as u64,
                bytemuck::cast_slice(&batch.split.sub_jobs),
            );
            self.queue.write_buffer(
                &stream.buffers.control,
                REMAINING_AT + 4 * p as u64,
                bytes(&[count as u32]),
            );
            let deepest = batch.split.sub_jobs.iter().map(|s| s.rows).max();
            let levels = deepest.expect("not empty") - 1;
            stream.places[p] = Some(OnDevice {
                token,
                batch,
                start: stream.numbered as u32,
                count: count as u32,
                levels,
                first_dispatch: dispatch,
                copied: None,
            });
            stream.numbered += count;
            if dispatch == 0 {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Steers the budget towards [`TARGET_DISPATCH`] after a dispatch that `took` so long.
    fn steer_budget(&mut self, took: Duration) {
        if took < TARGET_DISPATCH / 2 {
            self.budget = self.budget.saturating_mul(2).min(self.max_budget);
        } else if took > TARGET_DISPATCH * 2 {
            self.budget = (self.budget / 2).max(1 << 8);
        }
    }

    /// After the control words of dispatch `number`: places copied back since are read and
    /// handed to `done` (which frees them), and places whose sub-jobs those words show all
    /// counted have their results copied back behind the queued dispatch.
    fn settle_places<T>(
        &self,
        stream: &mut Stream<T>,
        control: &[u32],
        number: usize,
        done: &mut dyn FnMut(T, Vec<u64>),
        started: Instant,
    ) -> Result<(), GpuError> {
        for p in 0..PLACES {
            let Some(on) = &mut stream.places[p] else {
                continue;
            };
            if let Some(copy) = on.copied.clone() {
                let raw =
                    self.read(&self.places.as_ref().expect("placed").results_read[p], copy)?;
                let on = stream.places[p].take().expect("matched above");
                let totals = on.batch.totals(&raw[..2 * on.count as usize])?;
                if self.trace {
                    eprintln!(
                        "nqueens: gpu batch: {} sub-jobs, {} stack levels, place {p}, \
                         done {:.0} ms into the stream",
                        on.count,
                        on.levels,
                        started.elapsed().as_secs_f64() * 1000.0
                    );
                }
                done(on.token, totals);
            } else if on.first_dispatch <= number && control[4 + p] == 0 {
                on.copied = Some(self.copy_results(p));
            }
        }
        Ok(())
    }

    /// Grows the places to hold `batch` (twice its size, and at least
    /// [`MIN_ROOM_PER_THREAD`] sub-jobs per thread, so that the next batches, which grow, fit
    /// too, within what one buffer binding may hold); only while no batch is on the device.
    /// A batch larger than a binding allows is refused.
    fn grow_places(&mut self, batch: &Prepared) -> Result<(), GpuError> {
        use wgpu::BufferUsages as U;
        let sub_job_bytes = size_of::<SubJob>() as u64;
        let binding = self.device.limits().max_storage_buffer_binding_size;
        let most_sub_jobs = binding / (PLACES as u64 * sub_job_bytes);
        let most_words = binding / (PLACES as u64 * 4);
        let (sub_jobs, words) = (
            batch.split.sub_jobs.len() as u64,
            batch.split.tables.len() as u64,
        );
        if sub_jobs > most_sub_jobs || words > most_words {
            return Err(GpuError::Device(format!(
                "a batch of {sub_jobs} sub-jobs and {words} table words is more than a buffer \
                 binding of {binding} bytes holds in {PLACES} places"
            )));
        }
        let least = MIN_ROOM_PER_THREAD * u64::from(self.threads);
        let room = |size: u64| (2 * size).max(16);
        let old = self.places.take();
        let sub_job_room = room(sub_jobs)
            .max(least)
            .max(old.as_ref().map_or(0, |b| b.sub_job_room))
            .min(most_sub_jobs);
        let table_words = room(words)
            .max(old.as_ref().map_or(0, |b| b.table_words))
            .min(most_words);
        self.places = Some(Places {
            tables: self.buffer(
                "tables",
                PLACES as u64 * table_words * 4,
                U::STORAGE | U::COPY_DST,
            ),
            sub_jobs: self.buffer(
                "sub-jobs",
                PLACES as u64 * sub_job_room * sub_job_bytes,
                U::STORAGE | U::COPY_DST,
            ),
            results: self.buffer(
                "results",
                PLACES as u64 * sub_job_room * 8,
                U::STORAGE | U::COPY_SRC,
            ),
            results_read: std::array::from_fn(|p| {
                self.buffer(
                    &format!("results read {p}"),
                    sub_job_room * 8,
                    U::MAP_READ | U::COPY_DST,
                )
            }),
            table_words,
            sub_job_room,
        });
        Ok(())
    }

    /// Clears every thread's state and the claims: the next dispatch starts from sub-job 0.
    fn restart(&self, streamed: &Streamed) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.state, 0, None);
        encoder.clear_buffer(&streamed.control, 0, Some(REMAINING_AT));
        self.queue.submit([encoder.finish()]);
    }

    fn bind_group(&self, streamed: &Streamed) -> wgpu::BindGroup {
        let buffers = self.places.as_ref().expect("a batch is placed first");
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("search"),
            layout: &self.layout,
            entries: &[
                (0, &streamed.params),
                (1, &buffers.tables),
                (2, &buffers.sub_jobs),
                (3, &buffers.results),
                (4, &self.state),
                (5, &streamed.control),
            ]
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding,
                resource: buffer.as_entire_binding(),
            }),
        })
    }

    /// Queues one dispatch over the batches of `stream`, its control words copied to
    /// `control_read[read]`.
    fn dispatch<T>(&mut self, stream: &mut Stream<T>, read: usize) -> wgpu::SubmissionIndex {
        // Stacks as deep as the deepest batch on the device needs.
        let levels = stream.places.iter().flatten().map(|on| on.levels).max();
        let pipeline = self.pipeline(levels.unwrap_or(1));
        let group = match &stream.bind_group {
            Some(group) => group.clone(),
            None => stream
                .bind_group
                .insert(self.bind_group(&stream.buffers))
                .clone(),
        };
        let buffers = self.places.as_ref().expect("a batch is placed first");
        let mut params = [0u32; PARAMS_BYTES as usize / 4];
        params[..4].copy_from_slice(&[
            self.budget,
            self.threads,
            buffers.sub_job_room as u32,
            buffers.table_words as u32,
        ]);
        for (p, place) in stream.places.iter().enumerate() {
            // A place copied back takes no more claims (all its numbers were taken).
            if let Some(on) = place.as_ref().filter(|on| on.copied.is_none()) {
                [params[4 + p], params[8 + p]] = [on.start, on.count];
            }
        }
        let streamed = &stream.buffers;
        self.queue.write_buffer(&streamed.params, 0, bytes(&params));
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&streamed.control, STEPS_AT, Some(REMAINING_AT - STEPS_AT));
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(self.threads / WORKGROUP, 1, 1);
        }
        encoder.copy_buffer_to_buffer(
            &streamed.control,
            0,
            &streamed.control_read[read],
            0,
            Some(CONTROL_BYTES),
        );
        self.queue.submit([encoder.finish()])
    }

    /// Queues the copy of place `p`'s results to its read-back buffer.
    fn copy_results(&self, p: usize) -> wgpu::SubmissionIndex {
        let buffers = self.places.as_ref().expect("placed");
        let place_bytes = buffers.sub_job_room * 8;
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(
            &buffers.results,
            p as u64 * place_bytes,
            &buffers.results_read[p],
            0,
            Some(place_bytes),
        );
        self.queue.submit([encoder.finish()])
    }
}
