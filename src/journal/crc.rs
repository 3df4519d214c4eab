//! CRC-32 (IEEE 802.3, the checksum of zip, PNG and gzip) of a header or a record: a table of
//! 256 entries built at compile time, a byte a step. Journals checksum 30-byte records and one
//! 64-byte header, so speed is no concern and no dependency is needed.

/// The reflected polynomial of CRC-32.
const POLY: u32 = 0xEDB8_8320;

/// The CRC of every byte value.
const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 1 == 1 { (c >> 1) ^ POLY } else { c >> 1 };
            bit += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// The CRC-32 of `bytes`.
pub(crate) fn hash(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |crc, &b| {
        TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8)
    })
}

#[cfg(test)]
mod tests {
    use super::hash;

    #[test]
    fn the_standard_check_values() {
        // The check value of the CRC catalogue, and two values zlib's crc32 gives.
        assert_eq!(hash(b"123456789"), 0xCBF4_3926);
        assert_eq!(hash(b""), 0);
        assert_eq!(
            hash(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }
}
