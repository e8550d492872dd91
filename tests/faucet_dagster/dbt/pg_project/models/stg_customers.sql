select
    id as customer_id,
    first_name || ' ' || last_name as full_name,
    lower(email) as email,
    nullif(country, '') as country,
    cast(signed_up_at as date) as signed_up_at
from {{ ref('raw_customers') }}
