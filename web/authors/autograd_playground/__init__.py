"""The playground for course authors: the built static site, served or exported, and used
from Sphinx, MyST and MkDocs pages; `check` runs a course's playgrounds headlessly."""
