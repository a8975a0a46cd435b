//! One message in, what to do with it out: drop it (malformed), answer it
//! now (`--fast`, control queries), or hold it and answer later. The
//! answer is built up front; only when it is sent depends on the hold.

use super::fast::normalize;
use super::stats::Ticket;
use super::{DelayConfig, Shared};
use hickory_proto::op::{Edns, Message, MessageType, OpCode, Query, ResponseCode};
use hickory_proto::rr::rdata::{A, AAAA, TXT};
use hickory_proto::rr::{RData, Record, RecordType};
use std::net::IpAddr;

/// The control query that returns the stats (TXT, one `key=value` each).
pub const STATS_NAME: &str = "_stats.dns-delay";
/// The control query that starts the maxima over.
pub const RESET_NAME: &str = "_reset.dns-delay";

/// What to do with one message.
pub(crate) enum Verdict {
    /// Not one well-formed query: counted, dropped.
    Malformed,
    /// Answer at once.
    Now(Vec<u8>),
    /// Hold, then answer.
    Hold(Ticket, Vec<u8>),
}

/// Decides what to do with `bytes`; counts malformed, fast and control
/// messages (held ones are counted when their hold starts).
pub(crate) fn classify(bytes: &[u8], shared: &Shared) -> Verdict {
    let Some((req, query)) = parse(bytes) else {
        shared.tally().count(|s| s.malformed_total += 1);
        return Verdict::Malformed;
    };
    let name = normalize(&query.name.to_ascii());
    let cfg = &shared.config;
    if name == STATS_NAME || name == RESET_NAME {
        {
            let mut tally = shared.tally();
            tally.count(|s| s.control_total += 1);
            if name == RESET_NAME {
                tally.reset_max();
            }
        }
        let lines = if name == RESET_NAME {
            vec!["reset".to_string()]
        } else {
            // The whole stats, listen address and hold included.
            shared.stats().lines()
        };
        let records = match query.query_type {
            RecordType::TXT => lines
                .into_iter()
                .map(|l| Record::from_rdata(query.name.clone(), 0, RData::TXT(TXT::new(vec![l]))))
                .collect(),
            _ => Vec::new(),
        };
        return respond(&req, &query, ResponseCode::NoError, records)
            .map_or(Verdict::Malformed, Verdict::Now);
    }
    let (code, records) = match &cfg.zone {
        Some(zone) => match zone.addresses(&name) {
            Some(addrs) => (ResponseCode::NoError, zone_records(cfg, &query, addrs)),
            None => (ResponseCode::NXDomain, Vec::new()),
        },
        None => (ResponseCode::NoError, address_records(cfg, &query)),
    };
    let Some(bytes) = respond(&req, &query, code, records) else {
        shared.tally().count(|s| s.malformed_total += 1);
        return Verdict::Malformed;
    };
    if cfg.fast.iter().any(|p| p.matches(&name)) {
        shared.tally().count(|s| s.fast_total += 1);
        return Verdict::Now(bytes);
    }
    Verdict::Hold(
        Ticket {
            name,
            id: req.metadata.id,
            qtype: u16::from(query.query_type),
        },
        bytes,
    )
}

/// One well-formed query: a QUERY-opcode request with exactly one question.
fn parse(bytes: &[u8]) -> Option<(Message, Query)> {
    let req = Message::from_vec(bytes).ok()?;
    if req.metadata.message_type != MessageType::Query
        || req.metadata.op_code != OpCode::Query
        || req.queries.len() != 1
    {
        return None;
    }
    let query = req.queries[0].clone();
    Some((req, query))
}

/// The answer to an A or AAAA query: `--answer` of that family with
/// `--ttl`; none (an empty NOERROR answer) for other types or a family
/// without an answer.
fn address_records(cfg: &DelayConfig, query: &Query) -> Vec<Record> {
    let rdata = match query.query_type {
        RecordType::A => cfg.answer_v4.map(|ip| RData::A(A(ip))),
        RecordType::AAAA => cfg.answer_v6.map(|ip| RData::AAAA(AAAA(ip))),
        _ => None,
    };
    rdata
        .map(|r| vec![Record::from_rdata(query.name.clone(), cfg.ttl, r)])
        .unwrap_or_default()
}

/// The answer to an A or AAAA query for a name of the zone: its addresses
/// of that family, in zone order (none: "no data").
fn zone_records(cfg: &DelayConfig, query: &Query, addrs: &[IpAddr]) -> Vec<Record> {
    addrs
        .iter()
        .filter_map(|ip| match (query.query_type, ip) {
            (RecordType::A, IpAddr::V4(v4)) => Some(RData::A(A(*v4))),
            (RecordType::AAAA, IpAddr::V6(v6)) => Some(RData::AAAA(AAAA(*v6))),
            _ => None,
        })
        .map(|r| Record::from_rdata(query.name.clone(), cfg.ttl, r))
        .collect()
}

/// The response to `req`: its id, opcode, RD bit and question (name in the
/// client's case), `code`, `answers`, EDNS if the query had it.
fn respond(
    req: &Message,
    query: &Query,
    code: ResponseCode,
    answers: Vec<Record>,
) -> Option<Vec<u8>> {
    let mut resp = Message::response(req.metadata.id, req.metadata.op_code);
    resp.metadata.recursion_desired = req.metadata.recursion_desired;
    resp.metadata.recursion_available = true;
    resp.metadata.authoritative = true;
    resp.metadata.response_code = code;
    resp.add_query(query.clone());
    for a in answers {
        resp.add_answer(a);
    }
    if req.edns.is_some() {
        let mut edns = Edns::new();
        edns.set_max_payload(1232);
        resp.set_edns(edns);
    }
    resp.to_vec().ok()
}
