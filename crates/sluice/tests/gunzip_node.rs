//! `sluice::zlib::gunzip_sync` against Node v20's `zlib.gunzip` on crafted
//! inputs: each expectation below is what Node 20.20.2 answered for the same
//! bytes (`bindings/node/test/gunzip-node.test.js` compares the two live,
//! through the preload, on the same kinds of input).

use sluice::zlib::{GunzipError, gunzip_sync, gzip_sync};

fn gz(data: &[u8]) -> Vec<u8> {
    gzip_sync(data, 6).unwrap()
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(data);
    c.sum()
}

/// A member built by hand: `flags` plus the optional fields, the raw
/// deflate of `data` (or `body`), then CRC-32 and ISIZE (or the given ones).
#[derive(Default)]
struct Member<'a> {
    method: Option<u8>,
    flags: u8,
    extra: Option<Vec<u8>>,
    name: Option<Vec<u8>>,
    comment: Option<Vec<u8>>,
    hcrc: Option<bool>,
    body: Option<Vec<u8>>,
    crc: Option<u32>,
    isize: Option<u32>,
    data: &'a [u8],
}

impl Member<'_> {
    fn bytes(&self) -> Vec<u8> {
        let mut flags = self.flags;
        flags |= if self.extra.is_some() { 4 } else { 0 };
        flags |= if self.name.is_some() { 8 } else { 0 };
        flags |= if self.comment.is_some() { 16 } else { 0 };
        flags |= if self.hcrc.is_some() { 2 } else { 0 };
        let mut out = vec![
            0x1f,
            0x8b,
            self.method.unwrap_or(8),
            flags,
            0,
            0,
            0,
            0,
            0,
            3,
        ];
        if let Some(x) = &self.extra {
            out.extend_from_slice(&(x.len() as u16).to_le_bytes());
            out.extend_from_slice(x);
        }
        for field in [&self.name, &self.comment].into_iter().flatten() {
            out.extend_from_slice(field);
            out.push(0);
        }
        if let Some(right) = self.hcrc {
            let crc = (crc32(&out) & 0xffff) as u16;
            out.extend_from_slice(&(if right { crc } else { crc ^ 0x5555 }).to_le_bytes());
        }
        match &self.body {
            Some(b) => out.extend_from_slice(b),
            None => {
                let mut d =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(6));
                std::io::Write::write_all(&mut d, self.data).unwrap();
                out.extend_from_slice(&d.finish().unwrap());
            }
        }
        out.extend_from_slice(&self.crc.unwrap_or(crc32(self.data)).to_le_bytes());
        out.extend_from_slice(&self.isize.unwrap_or(self.data.len() as u32).to_le_bytes());
        out
    }
}

fn data_error(message: &str) -> Result<Vec<u8>, GunzipError> {
    Err(GunzipError::Data {
        message: message.into(),
    })
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn node_accepts_members_padding_and_long_header_fields() {
    let one = gz(b"abc");
    let two = gz(b"def");
    let ok =
        |input: &[u8], want: &[u8]| assert_eq!(gunzip_sync(input, usize::MAX).as_deref(), Ok(want));
    ok(&one, b"abc");
    ok(&cat(&[&one, &two]), b"abcdef");
    ok(&gz(b""), b"");
    ok(&cat(&[&one, &[0]]), b"abc");
    ok(&cat(&[&one, &[0; 100_000]]), b"abc");
    // Zero bytes end the data: what follows them is ignored, as in Node.
    ok(&cat(&[&one, &[0; 4], &two]), b"abc");
    ok(&cat(&[&one, &[0, 0x1f, 0x8b, 8]]), b"abc");
    let long = vec![b'n'; 200 << 10];
    for m in [
        Member {
            flags: 1,
            ..Member::default()
        },
        Member {
            name: Some(long.clone()),
            ..Member::default()
        },
        Member {
            comment: Some(vec![b'c'; 70 << 10]),
            ..Member::default()
        },
        Member {
            extra: Some(vec![b'x'; 65535]),
            ..Member::default()
        },
        Member {
            name: Some(vec![b'n'; 64 << 10]),
            comment: Some(vec![b'c'; 64 << 10]),
            hcrc: Some(true),
            ..Member::default()
        },
    ] {
        ok(&Member { data: b"xyz", ..m }.bytes(), b"xyz");
    }
    // Several output pieces, and a second member after a long first one.
    let big: Vec<u8> = (0..1u32 << 20).map(|i| (i * 7 + (i >> 9)) as u8).collect();
    ok(&gz(&big), &big);
    ok(&cat(&[&gz(&big), &one]), &cat(&[&big, b"abc"]));
}

#[test]
fn node_refuses_with_zlibs_messages() {
    let one = gz(b"abc");
    let no = |input: &[u8], want: Result<Vec<u8>, GunzipError>| {
        assert_eq!(gunzip_sync(input, usize::MAX), want, "{input:02x?}");
    };
    let eof = Err(GunzipError::UnexpectedEnd);
    // Trailing bytes that do not start with zero are read as a member.
    no(
        &cat(&[&one, &[0x1f, 0x8b, 0xff, 0xff]]),
        data_error("unknown compression method"),
    );
    no(
        &cat(&[&one, &[0x1f, 0x8b, 0xff, 0xff], &[0; 10]]),
        data_error("unknown compression method"),
    );
    no(
        &cat(&[&one, &[0xab, 0xcd, 0xef]]),
        data_error("incorrect header check"),
    );
    no(
        &cat(&[&one, b"trailing garbage"]),
        data_error("incorrect header check"),
    );
    no(&cat(&[&one, &[0x1f, 0x8b]]), eof.clone());
    no(&cat(&[&one, &[0x1f]]), eof.clone());
    no(&cat(&[&one, &one[..10]]), eof.clone());
    // Inputs that end early.
    no(b"", eof.clone());
    no(&[0], eof.clone());
    no(&one[..10], eof.clone());
    no(&one[..one.len() - 8], eof.clone());
    no(&one[..one.len() - 4], eof.clone());
    no(&[0; 16], data_error("incorrect header check"));
    // Each of zlib's header and trailer checks.
    let m = |m: Member<'_>| m.bytes();
    no(
        &m(Member {
            method: Some(0),
            ..Member::default()
        }),
        data_error("unknown compression method"),
    );
    no(
        &m(Member {
            flags: 0x20,
            ..Member::default()
        }),
        data_error("unknown header flags set"),
    );
    no(
        &m(Member {
            flags: 0x80,
            ..Member::default()
        }),
        data_error("unknown header flags set"),
    );
    no(
        &m(Member {
            name: Some(b"a.txt".to_vec()),
            hcrc: Some(false),
            ..Member::default()
        }),
        data_error("header crc mismatch"),
    );
    no(
        &m(Member {
            data: b"abc",
            crc: Some(0x1234_5678),
            ..Member::default()
        }),
        data_error("incorrect data check"),
    );
    no(
        &m(Member {
            data: b"abc",
            isize: Some(4),
            ..Member::default()
        }),
        data_error("incorrect length check"),
    );
    no(
        &cat(&[
            &one,
            &m(Member {
                data: b"abc",
                crc: Some(1),
                ..Member::default()
            }),
        ]),
        data_error("incorrect data check"),
    );
    // And of inflate's.
    let body = |b: &[u8]| {
        m(Member {
            data: b"abc",
            body: Some(b.to_vec()),
            ..Member::default()
        })
    };
    no(&body(&[0x07, 0x00]), data_error("invalid block type"));
    no(
        &body(&[1, 5, 0, 0, 0, b'a', b'b', b'c', b'd', b'e']),
        data_error("invalid stored block lengths"),
    );
    no(
        &body(&[0x63, 0x00, 0x42, 0x00, 0x00]),
        data_error("invalid distance too far back"),
    );
    no(
        &body(&[0x04, 0x00, 0xfe, 0xff]),
        data_error("invalid code lengths set"),
    );
    assert_eq!(
        gunzip_sync(&body(&[1, 3, 0, 0xfc, 0xff, b'a', b'b', b'c']), usize::MAX).as_deref(),
        Ok(&b"abc"[..])
    );
}

#[test]
fn the_output_limit_is_checked_before_it_is_exceeded_in_memory() {
    let big = vec![7u8; 1 << 20];
    let packed = gz(&big);
    assert_eq!(gunzip_sync(&packed, 1 << 20).map(|v| v.len()), Ok(1 << 20));
    let e = gunzip_sync(&packed, (1 << 20) - 1).unwrap_err();
    assert_eq!(
        e,
        GunzipError::TooLarge {
            limit: (1 << 20) - 1
        }
    );
    assert_eq!(e.code(), "ERR_BUFFER_TOO_LARGE");
    assert_eq!(
        e.to_string(),
        "Cannot create a Buffer larger than 1048575 bytes"
    );
    assert_eq!(
        gunzip_sync(&packed, 0),
        Err(GunzipError::TooLarge { limit: 0 })
    );
    let e = gunzip_sync(b"", 10).unwrap_err();
    assert_eq!(
        (e.code(), e.errno(), e.to_string().as_str()),
        ("Z_BUF_ERROR", Some(-5), "unexpected end of file")
    );
    let e = gunzip_sync(b"xx", 10).unwrap_err();
    assert_eq!((e.code(), e.errno()), ("Z_DATA_ERROR", Some(-3)));
}

#[test]
fn the_pool_form_carries_the_error_inside_invalid_data() {
    let pool = sluice::Pool::builder().build().unwrap();
    let e = sluice::zlib::gunzip(&pool, b"not gzip")
        .wait()
        .unwrap()
        .unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    assert_eq!(e.to_string(), "incorrect header check");
    let inner = e.get_ref().and_then(|i| i.downcast_ref::<GunzipError>());
    assert_eq!(inner.map(GunzipError::code), Some("Z_DATA_ERROR"));
}
