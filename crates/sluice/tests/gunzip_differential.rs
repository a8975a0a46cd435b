//! The gunzip fuzz target's comparison as a short, fixed-seed smoke run on
//! stable: every seed of `fuzz/seeds/gunzip_node` (Node's crafted cases,
//! written by `bindings/node/test/gunzip-cases.js --write`), then a fixed
//! number of mutations of them, each through `sluice::zlib::gunzip_sync` and
//! the reference of `support/gunzip_ref.rs` (its own header parser, a port of
//! zlib's puff.c, Node's member rules): the same bytes, or the same refusal
//! with the same message.
//! The longer campaign is libFuzzer's (`scripts/fuzz 300 gunzip_node`).

#[path = "support/gunzip_ref.rs"]
mod gunzip_ref;

use gunzip_ref::{RefOutcome, compare, reference};

const LIMIT: usize = 4 << 20;
const MUTATIONS: usize = 3000;

fn seeds() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/gunzip_node");
    let mut seeds: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    seeds.sort();
    seeds
}

/// xorshift64*: the same mutations on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, seeds: &[(String, Vec<u8>)]) {
    for _ in 0..=rng.below(3) {
        let len = input.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                input[i] = rng.next() as u8;
            }
            2 => input.truncate(rng.below(len + 1)),
            3 => {
                let at = rng.below(len + 1);
                let bytes: Vec<u8> = (0..=rng.below(4)).map(|_| rng.next() as u8).collect();
                input.splice(at..at, bytes);
            }
            4 => input.extend(std::iter::repeat_n(0, 1 + rng.below(16))),
            5 => input.extend_from_slice(&[0x1f, 0x8b, 8, 0][..1 + rng.below(4)]),
            6 => {
                let other = &seeds[rng.below(seeds.len())].1;
                input.extend_from_slice(&other[..other.len().min(4096)]);
            }
            7 if len > 0 => {
                // A header field's byte, or a trailer's.
                let i = if rng.below(2) == 0 {
                    rng.below(len.min(12))
                } else {
                    len - 1 - rng.below(len.min(8))
                };
                input[i] = input[i].wrapping_add(1 + rng.below(255) as u8);
            }
            _ if len > 1 => {
                let a = rng.below(len);
                let b = rng.below(len);
                input.swap(a, b);
            }
            _ => input.push(rng.next() as u8),
        }
    }
}

#[test]
fn sluices_gunzip_and_the_reference_agree_on_the_seeds_and_their_mutations() {
    let seeds = seeds();
    assert!(seeds.len() >= 50, "{} seeds", seeds.len());
    let mut differ = Vec::new();
    let mut kinds = [0usize; 4];
    let mut tally = |input: &[u8]| {
        kinds[match reference(input, LIMIT) {
            RefOutcome::Bytes(_) => 0,
            RefOutcome::Data(m)
                if m.starts_with("incorrect")
                    || m.starts_with("unknown")
                    || m.starts_with("header") =>
            {
                1
            }
            RefOutcome::Data(_) => 2,
            RefOutcome::End | RefOutcome::TooLarge => 3,
        }] += 1;
    };
    for (name, input) in &seeds {
        tally(input);
        if let Err(e) = compare(input, LIMIT) {
            differ.push(format!("seed {name}: {e}"));
        }
    }
    let mut rng = Rng(0x5eed_0f51_001c_e5a1);
    for n in 0..MUTATIONS {
        let mut input = seeds[rng.below(seeds.len())].1.clone();
        input.truncate(64 << 10);
        mutate(&mut rng, &mut input, &seeds);
        tally(&input);
        if let Err(e) = compare(&input, LIMIT) {
            differ.push(format!("mutation {n}: {e}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    // The run reached every kind of outcome: accepted, refused by a header
    // or trailer check, by inflate, and cut short.
    assert!(
        kinds.iter().all(|&k| k >= 20),
        "outcomes (bytes, checks, inflate, end): {kinds:?}"
    );
}
