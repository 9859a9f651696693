//! Puzzle texts borrowed from Python in place: the UTF-8 of each `str` (or the bytes of
//! each `bytes`) of a list, or the rows of an Arrow string column's buffers. Nothing is
//! copied per puzzle: the objects are held (one reference each) while the GIL is
//! released, so that no other thread can free what the workers read.

use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

/// What puzzle texts are borrowed from, held for as long as they are read.
pub enum Held<'py> {
    /// The items of a list of `str` or `bytes`.
    Items(Vec<Bound<'py, PyAny>>),
    /// The chunks of an Arrow string column.
    Arrow(Vec<TextChunk<'py>>),
}

/// One Arrow array of strings: offsets (int32 for `string`, int64 for `large_string`),
/// the data, and the validity bitmap with the bit of row 0 (null rows read as "").
pub struct TextChunk<'py> {
    offsets: Offsets<'py>,
    data: PyReadonlyArray1<'py, u8>,
    validity: Option<(PyReadonlyArray1<'py, u8>, usize)>,
}

/// An Arrow column's offsets, as wide as its type has them.
pub enum Offsets<'py> {
    /// `string`, `binary`.
    Narrow(PyReadonlyArray1<'py, i32>),
    /// `large_string`, `large_binary`.
    Wide(PyReadonlyArray1<'py, i64>),
}

impl<'py> Held<'py> {
    /// Holds `puzzles`: a list of `str` or `bytes`, or a tuple of an Arrow column's
    /// chunks, each a tuple `(offsets, data, validity, bit)` of its buffers as NumPy
    /// arrays (`offsets` already sliced to the chunk's rows plus one, `validity` None when
    /// there are no nulls, `bit` the bitmap's bit of the chunk's first row).
    pub fn of(puzzles: &Bound<'py, PyAny>) -> PyResult<Held<'py>> {
        if let Ok(list) = puzzles.downcast::<PyList>() {
            return Ok(Held::Items(list.iter().collect()));
        }
        let Ok(parts) = puzzles.downcast::<PyTuple>() else {
            let kind = puzzles.get_type().name()?.to_string();
            return Err(PyTypeError::new_err(format!(
                "puzzles must be a list, not {kind}"
            )));
        };
        parts
            .iter()
            .map(|chunk| TextChunk::of(&chunk))
            .collect::<PyResult<_>>()
            .map(Held::Arrow)
    }

    /// The texts, in order.
    pub fn texts(&self) -> PyResult<Vec<&[u8]>> {
        match self {
            Held::Items(items) => items.iter().enumerate().map(item_text).collect(),
            Held::Arrow(chunks) => {
                let mut texts = Vec::with_capacity(chunks.iter().map(TextChunk::len).sum());
                for chunk in chunks {
                    chunk.texts(&mut texts)?;
                }
                Ok(texts)
            }
        }
    }
}

impl<'py> TextChunk<'py> {
    /// A chunk from its `(offsets, data, validity, bit)` tuple.
    fn of(chunk: &Bound<'py, PyAny>) -> PyResult<TextChunk<'py>> {
        let (offsets, data, validity, bit): (
            Bound<'py, PyAny>,
            PyReadonlyArray1<'py, u8>,
            Option<PyReadonlyArray1<'py, u8>>,
            usize,
        ) = chunk.extract()?;
        let offsets = match offsets.extract::<PyReadonlyArray1<'py, i32>>() {
            Ok(narrow) => Offsets::Narrow(narrow),
            Err(_) => Offsets::Wide(offsets.extract()?),
        };
        Ok(TextChunk {
            offsets,
            data,
            validity: validity.map(|v| (v, bit)),
        })
    }

    /// Appends the chunk's texts to `texts`.
    fn texts<'a>(&'a self, texts: &mut Vec<&'a [u8]>) -> PyResult<()> {
        let data = self.data.as_slice()?;
        let validity = match &self.validity {
            Some((bits, bit)) => Some((bits.as_slice()?, *bit)),
            None => None,
        };
        match &self.offsets {
            Offsets::Narrow(o) => arrow_texts(o.as_slice()?, data, validity, texts),
            Offsets::Wide(o) => arrow_texts(o.as_slice()?, data, validity, texts),
        }
    }

    /// The number of puzzles.
    fn len(&self) -> usize {
        match &self.offsets {
            Offsets::Narrow(o) => o.len().saturating_sub(1),
            Offsets::Wide(o) => o.len().saturating_sub(1),
        }
    }
}

/// Item `i` of a list: a `str`'s UTF-8 (kept by the `str` itself) or a `bytes`' bytes.
fn item_text<'a>((i, item): (usize, &'a Bound<'_, PyAny>)) -> PyResult<&'a [u8]> {
    if let Ok(s) = item.downcast::<PyString>() {
        return s.to_str().map(str::as_bytes).map_err(|_| {
            PyValueError::new_err(format!(
                "puzzle {i} is a str with no UTF-8 form (a lone surrogate)"
            ))
        });
    }
    if let Ok(b) = item.downcast::<PyBytes>() {
        return Ok(b.as_bytes());
    }
    let kind = item.get_type().name()?.to_string();
    Err(PyTypeError::new_err(format!(
        "puzzle {i} is a {kind}, not str or bytes"
    )))
}

/// Appends the rows of an Arrow array to `texts`: row `i` is
/// `data[offsets[i]..offsets[i + 1]]`, or "" where the validity bit `bit + i` is clear.
fn arrow_texts<'a, O: Copy + TryInto<usize>>(
    offsets: &[O],
    data: &'a [u8],
    validity: Option<(&[u8], usize)>,
    texts: &mut Vec<&'a [u8]>,
) -> PyResult<()> {
    let at = |o: O| o.try_into().ok().filter(|&o| o <= data.len());
    for (i, w) in offsets.windows(2).enumerate() {
        if let Some((bits, bit)) = validity {
            let b = bit + i;
            let byte = bits.get(b / 8).ok_or_else(|| {
                PyValueError::new_err(format!("validity bitmap too short for row {i}"))
            })?;
            if byte >> (b % 8) & 1 == 0 {
                texts.push(&data[..0]);
                continue;
            }
        }
        match (at(w[0]), at(w[1])) {
            (Some(start), Some(end)) if start <= end => texts.push(&data[start..end]),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "offsets of row {i} are outside the column's data"
                )))
            }
        }
    }
    Ok(())
}
