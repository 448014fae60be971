//! Variant overlays: files that patch content items by kind and id, applied in order. The
//! types and their application are the core's ([`orrery_core::content::overlay`]); the kinds
//! they name are Gaia Project's ([`super::table::KINDS`]).

pub use orrery_core::content::overlay::*;
