//! sluice::crypto::generate_key_pair: keys that the `rsa` crate and Node
//! (OpenSSL) read back as the pair asked for, and that work.

use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey};
use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use sluice::Pool;
use sluice::crypto::{self, KeyPairKind};
use std::process::Command;

fn node() -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

const KINDS: [KeyPairKind; 5] = [
    KeyPairKind::Rsa {
        modulus_bits: 2048,
        public_exponent: 65537,
    },
    KeyPairKind::Rsa {
        modulus_bits: 1025,
        public_exponent: 3,
    },
    KeyPairKind::Rsa {
        modulus_bits: 512,
        public_exponent: 4_294_967_295,
    },
    KeyPairKind::Ed25519,
    KeyPairKind::X25519,
];

#[test]
fn rsa_keys_read_back_with_their_size_and_exponent() {
    let pool = Pool::builder().build().unwrap();
    for kind in KINDS {
        let KeyPairKind::Rsa {
            modulus_bits,
            public_exponent,
        } = kind
        else {
            continue;
        };
        // The rsa crate decodes no modulus under 1024 bits (Node's test below
        // reads the 512-bit one).
        if modulus_bits < 1024 {
            continue;
        }
        let pair = crypto::generate_key_pair(&pool, kind)
            .wait()
            .unwrap()
            .unwrap();
        // from_pkcs8_der validates the key (p q = n, d e = 1 mod p - 1 and q - 1).
        let private = rsa::PrivateKey::from_pkcs8_der(&pair.private_pkcs8).unwrap();
        let public = rsa::PublicKey::from_public_key_der(&pair.public_spki).unwrap();
        assert_eq!(&public, private.as_public_key());
        assert_eq!(public.n().as_ref().bit_width_vartime(), modulus_bits);
        assert_eq!(
            public.e(),
            &rsa::BoxedUint::from(u64::from(public_exponent))
        );
        assert_eq!(private.primes().len(), 2);
    }
}

#[test]
fn node_reads_each_pair_and_it_works() {
    let Some(node) = node() else {
        eprintln!("node not on PATH: skipping Node's reading of the keys");
        return;
    };
    // For each pair: its type and details as Node reads them, whether the
    // public key is the private key's, and a signature (or an X25519
    // exchange with a pair of Node's) checked by Node.
    let script = r#"
        const c = require('node:crypto');
        const [kind, spki, pkcs8] = process.argv.slice(1);
        const pub = c.createPublicKey({ key: Buffer.from(spki, 'hex'), format: 'der', type: 'spki' });
        const priv = c.createPrivateKey({ key: Buffer.from(pkcs8, 'hex'), format: 'der', type: 'pkcs8' });
        const data = Buffer.from('sluice');
        let works;
        if (kind === 'x25519') {
          const other = c.generateKeyPairSync('x25519');
          works = c.diffieHellman({ privateKey: priv, publicKey: other.publicKey })
            .equals(c.diffieHellman({ privateKey: other.privateKey, publicKey: pub }));
        } else {
          const alg = kind === 'rsa' ? 'sha256' : null;
          works = c.verify(alg, data, pub, c.sign(alg, data, priv));
        }
        const d = priv.asymmetricKeyDetails;
        console.log(JSON.stringify({ type: priv.asymmetricKeyType, bits: d.modulusLength, e: d.publicExponent && String(d.publicExponent),
          same: c.createPublicKey(priv).equals(pub), works }));
    "#;
    for kind in KINDS {
        let pair = crypto::generate_key_pair_sync(kind).unwrap();
        let name = match kind {
            KeyPairKind::Rsa { .. } => "rsa",
            KeyPairKind::Ed25519 => "ed25519",
            KeyPairKind::X25519 => "x25519",
        };
        let out = Command::new(&node)
            .args([
                "-e",
                script,
                name,
                &hex(&pair.public_spki),
                &hex(&pair.private_pkcs8),
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let want = match kind {
            KeyPairKind::Rsa {
                modulus_bits,
                public_exponent,
            } => serde_json::json!({
                "type": "rsa", "bits": modulus_bits, "e": public_exponent.to_string(), "same": true, "works": true,
            }),
            _ => serde_json::json!({ "type": name, "same": true, "works": true }),
        };
        assert_eq!(got, want, "{kind:?}");
    }
}
