//! [`Out`]: a NumPy array the binding writes Rust numbers into, again and
//! again (an agent's observation, OpenSpiel's tensor). Through the buffer
//! protocol where the full C API is there: no `unsafe` (the workspace forbids
//! it), and cheaper than numpy's checked borrow, which looks the array up
//! among those borrowed. The stable ABI of the abi3 wheels (feature `abi3`,
//! every CPython from 3.9) has the buffer protocol only from 3.11, so there
//! the checked borrow writes.

use numpy::{Element, PyArray1};
#[cfg(feature = "abi3")]
use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

#[cfg(not(feature = "abi3"))]
/// A one-dimensional array written whole (see the module).
pub struct Out<T: Element + pyo3::buffer::Element>(pyo3::buffer::PyBuffer<T>);

#[cfg(not(feature = "abi3"))]
impl<T: Element + pyo3::buffer::Element + Copy> Out<T> {
    /// Writes to `array` (C-contiguous, of `T`; refused otherwise).
    pub fn new(array: &Bound<'_, PyArray1<T>>) -> PyResult<Out<T>> {
        Ok(Out(pyo3::buffer::PyBuffer::get(array.as_any())?))
    }

    /// Copies `data` in (refused unless it is the array's length).
    pub fn write(&self, py: Python<'_>, data: &[T]) -> PyResult<()> {
        self.0.copy_from_slice(py, data)
    }
}

#[cfg(feature = "abi3")]
/// A one-dimensional array written whole (see the module).
pub struct Out<T: Element>(Py<PyArray1<T>>);

#[cfg(feature = "abi3")]
impl<T: Element + Copy> Out<T> {
    /// Writes to `array` (C-contiguous, of `T`; refused otherwise).
    pub fn new(array: &Bound<'_, PyArray1<T>>) -> PyResult<Out<T>> {
        if !array.is_c_contiguous() {
            return Err(super::refused("the array must be C-contiguous"));
        }
        Ok(Out(array.clone().unbind()))
    }

    /// Copies `data` in (refused unless it is the array's length).
    pub fn write(&self, py: Python<'_>, data: &[T]) -> PyResult<()> {
        let mut array = self.0.bind(py).try_readwrite().map_err(super::refused)?;
        let slice = array.as_slice_mut().map_err(super::refused)?;
        if slice.len() != data.len() {
            return Err(super::refused("the array is not the data's length"));
        }
        slice.copy_from_slice(data);
        Ok(())
    }
}
