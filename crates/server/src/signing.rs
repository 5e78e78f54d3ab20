//! Logs the server exports are signed with its Ed25519 key, so that a player can show that a
//! log is the one the server kept: [`Key::sign`] appends a signature line of every byte before
//! it; [`verify`] checks one. The key is kept in the store and made on first use; its public
//! half is published at `GET /api/key`.

use ed25519_dalek::{Signer, SigningKey, Verifier, VerifyingKey};
use volley_core::log::Signature;

/// The server's signing key.
pub struct Key(SigningKey);

/// Why a key or a signature could not be read.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SignError {
    /// Not hex of the right length.
    #[error("{what} is not {len} bytes of hex")]
    Malformed {
        /// What was read.
        what: &'static str,
        /// How many bytes it should be.
        len: usize,
    },
    /// The signature does not hold for this text and key.
    #[error("the signature does not hold: the log was changed after it was signed, or signed by another key")]
    Broken,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(text: &str, what: &'static str) -> Result<[u8; N], SignError> {
    let bad = SignError::Malformed { what, len: N };
    if text.len() != 2 * N || !text.is_ascii() {
        return Err(bad);
    }
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad.clone())?;
    }
    Ok(out)
}

impl Key {
    /// The key whose secret half is `secret` (32 bytes, hex).
    pub fn from_hex(secret: &str) -> Result<Self, SignError> {
        Ok(Key(SigningKey::from_bytes(&unhex::<32>(secret.trim(), "the server's key")?)))
    }

    /// The public half, hex: what a signature names and `GET /api/key` publishes.
    pub fn public_hex(&self) -> String {
        hex(self.0.verifying_key().as_bytes())
    }

    /// The signature of `text`.
    pub fn sign(&self, text: &str) -> Signature {
        Signature { key: self.public_hex(), ed25519: hex(&self.0.sign(text.as_bytes()).to_bytes()) }
    }
}

/// A public key's fingerprint, to say and compare by eye: the first 8 bytes of the SHA-256 of
/// its 32 bytes, in groups of two (`3f9a:07c1:…`); a key that is not hex of 32 bytes has none.
pub fn fingerprint(public_hex: &str) -> Option<String> {
    use sha2::Digest;
    let bytes = unhex::<32>(public_hex.trim(), "a public key").ok()?;
    let digest = sha2::Sha256::digest(bytes);
    Some(digest[..8].chunks(2).map(hex).collect::<Vec<_>>().join(":"))
}

/// Whether `sig` is a signature of `text` by the key it names.
pub fn verify(sig: &Signature, text: &str) -> Result<(), SignError> {
    let key = VerifyingKey::from_bytes(&unhex::<32>(&sig.key, "the signature's key")?)
        .map_err(|_| SignError::Malformed { what: "the signature's key", len: 32 })?;
    let bytes = unhex::<64>(&sig.ed25519, "the signature")?;
    key.verify(text.as_bytes(), &ed25519_dalek::Signature::from_bytes(&bytes)).map_err(|_| SignError::Broken)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_fingerprint_is_short_and_of_its_key_only() {
        let a = Key::from_hex(&"07".repeat(32)).unwrap().public_hex();
        let b = Key::from_hex(&"08".repeat(32)).unwrap().public_hex();
        let fa = fingerprint(&a).unwrap();
        assert_eq!(fa.len(), 19, "{fa}");
        assert_eq!(fingerprint(&a.to_uppercase()), Some(fa.clone()));
        assert_ne!(fingerprint(&b), Some(fa));
        assert_eq!(fingerprint("not a key"), None);
    }

    #[test]
    fn a_signature_holds_for_its_text_only() {
        let key = Key::from_hex(&"07".repeat(32)).unwrap();
        let sig = key.sign("line one\nline two\n");
        assert_eq!(sig.key, key.public_hex());
        assert_eq!(verify(&sig, "line one\nline two\n"), Ok(()));
        assert_eq!(verify(&sig, "line one\nline 2\n"), Err(SignError::Broken));
        let other = Key::from_hex(&"08".repeat(32)).unwrap().sign("line one\nline two\n");
        let forged = Signature { key: sig.key.clone(), ed25519: other.ed25519 };
        assert_eq!(verify(&forged, "line one\nline two\n"), Err(SignError::Broken));
        assert!(matches!(Key::from_hex("zz"), Err(SignError::Malformed { .. })));
        assert!(matches!(
            verify(&Signature { key: "ab".into(), ed25519: sig.ed25519 }, ""),
            Err(SignError::Malformed { .. })
        ));
    }
}
