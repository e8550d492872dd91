select
    country,
    count(*) as customers,
    min(signed_up_at) as first_signup
from {{ ref('stg_customers') }}
group by country
