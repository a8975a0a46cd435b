//! A zone for the delay server (`--zone FILE`): the names it knows and
//! their addresses, so a resolver's search list can be seen at work. A
//! name in the zone gets its addresses of the asked family (an empty
//! NOERROR answer, "no data", when it has none of that family); a name
//! outside it gets NXDOMAIN. Without a zone every name has the `--answer`
//! addresses.

use super::fast::normalize;
use std::collections::BTreeMap;
use std::net::IpAddr;

/// Names (lowercased, without a final dot) and their addresses, in file
/// order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Zone(BTreeMap<String, Vec<IpAddr>>);

impl Zone {
    /// Parses hosts-file syntax: `ADDRESS NAME...` a line, `#` starts a
    /// comment. A line whose first field is not an address is an error
    /// that names the line.
    ///
    /// ```
    /// use sluice_testnet::dns_delay::Zone;
    /// let z = Zone::parse("10.0.0.1 a.lab.test A.other.\nfd00::1 a.lab.test # v6\n")?;
    /// assert_eq!(z.addresses("A.LAB.TEST.").map(|a| a.len()), Some(2));
    /// assert_eq!(z.addresses("a.other").map(|a| a.len()), Some(1));
    /// assert!(z.addresses("b.lab.test").is_none());
    /// assert!(Zone::parse("nope a.lab.test\n").unwrap_err().contains("line 1"));
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(text: &str) -> Result<Zone, String> {
        let mut names: BTreeMap<String, Vec<IpAddr>> = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let mut fields = line.split('#').next().unwrap_or("").split_whitespace();
            let Some(first) = fields.next() else { continue };
            let ip: IpAddr = first.parse().map_err(|_| {
                format!(
                    "zone line {}: {first:?} is not an IPv4 or IPv6 address (expected ADDRESS NAME...)",
                    n + 1
                )
            })?;
            for name in fields {
                names.entry(normalize(name)).or_default().push(ip);
            }
        }
        Ok(Zone(names))
    }

    /// The addresses of `name` (any case, final dot or not), or `None`
    /// when the zone does not hold it (NXDOMAIN).
    pub fn addresses(&self, name: &str) -> Option<&[IpAddr]> {
        self.0.get(&normalize(name)).map(Vec::as_slice)
    }
}
